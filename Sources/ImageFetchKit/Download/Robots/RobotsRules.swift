/// The rules a site's `/robots.txt` sets for one crawler, read as RFC 9309 says: the groups whose
/// `user-agent` names the crawler's product token (else the `*` groups), their `allow` and
/// `disallow` lines merged; the longest matching path pattern decides, `allow` winning a tie;
/// `*` in a pattern matches any run of characters and a final `$` anchors it at the end.
public struct RobotsRules: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var allows: Bool
        public var pattern: String

        /// The rule as robots.txt writes it, for messages.
        public var line: String { "\(allows ? "Allow" : "Disallow"): \(pattern)" }
    }

    public var rules: [Rule]

    /// No rule at all: everything is allowed (no robots.txt, or a 4xx for it).
    public static let allowAll = RobotsRules(rules: [])
    /// Everything refused: the site could not say (RFC 9309 §2.3.1.4: an unreachable robots.txt).
    public static let disallowAll = RobotsRules(rules: [Rule(allows: false, pattern: "/")])

    public init(rules: [Rule]) {
        self.rules = rules
    }

    /// Parses `text` for the crawler whose product token is `agent` (e.g. `imgfetch`).
    public init(parsing text: String, agent: String) {
        let agent = agent.lowercased()
        var ours: [Rule] = [], everyone: [Rule] = []
        var groupAgents: [String] = []
        var inRules = false
        // A group naming the crawler replaces the `*` groups; one that names it with no rule still does.
        var named = false
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: colon)...].trimmingWhitespace())
            switch key {
            case "user-agent":
                if inRules { groupAgents = []; inRules = false }
                groupAgents.append(value.lowercased())
                if value.lowercased() == agent { named = true }
            case "allow", "disallow":
                inRules = true
                // An empty disallow allows everything: it adds no rule.
                guard !value.isEmpty else { continue }
                let rule = Rule(allows: key == "allow", pattern: value)
                if groupAgents.contains(agent) { ours.append(rule) }
                if groupAgents.contains("*") { everyone.append(rule) }
            default:
                continue
            }
        }
        rules = named ? ours : everyone
    }

    /// The rule that refuses `path` (the URL's path and query, as sent), or nil when it is allowed.
    public func refusal(of path: String) -> Rule? {
        if path == "/robots.txt" { return nil }
        var best: Rule?
        for rule in rules where Self.matches(rule.pattern, path) {
            guard let current = best else { best = rule; continue }
            let (length, currentLength) = (rule.pattern.utf8.count, current.pattern.utf8.count)
            if length > currentLength || (length == currentLength && rule.allows && !current.allows) { best = rule }
        }
        guard let best, !best.allows else { return nil }
        return best
    }

    /// Whether `pattern` (with `*` and a final `$`) matches the start of `path`, or all of it with `$`.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var pattern = Substring(pattern)
        let anchored = pattern.hasSuffix("$")
        if anchored { pattern = pattern.dropLast() }
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        var rest = Substring(path)
        for (index, piece) in pieces.enumerated() {
            let isLast = index == pieces.count - 1
            if index == 0 {
                guard rest.hasPrefix(piece) else { return false }
                rest = rest.dropFirst(piece.count)
                if isLast { return !anchored || rest.isEmpty }
                continue
            }
            if isLast, anchored { return rest.hasSuffix(piece) }
            if piece.isEmpty { continue }
            guard let found = rest.firstRange(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
