/// The `X-Robots-Tag` opt-outs an image's reply may carry, for everyone (`noai`) or for one agent
/// (`imgfetch: noimageai`): `noai`, `noimageai`, `none` and `noindex` refuse it.
enum XRobotsTag {
    static let refusing: Set<String> = ["noai", "noimageai", "none", "noindex"]

    /// The directive that refuses the reply, as written, for the crawler `agent` (its product
    /// token, lowercased); nil when none does.
    static func refusal(in values: [String], agent: String) -> String? {
        for value in values {
            var directives = Substring(value)
            // "agent: d1, d2" scopes the directives to one agent; a directive name has no colon.
            if let colon = value.firstIndex(of: ":") {
                let scope = value[..<colon].trimmingWhitespace().lowercased()
                if !refusing.contains(scope) {
                    guard scope == agent else { continue }
                    directives = value[value.index(after: colon)...]
                }
            }
            for directive in directives.split(separator: ",") {
                let name = directive.trimmingWhitespace().lowercased()
                if refusing.contains(name) { return String(value.trimmingWhitespace()) }
            }
        }
        return nil
    }
}
