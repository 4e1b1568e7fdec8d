import FoundationEssentials

/// The `Code` and `Message` of an S3 error reply (`<Error><Code>AccessDenied</Code><Message>Access
/// Denied</Message>…</Error>`), which say far more than the status: `SignatureDoesNotMatch`,
/// `NoSuchBucket`, `ExpiredToken`, `SlowDown`. Only those two elements are read, by their tags:
/// FoundationXML is not linked, and the reply's other elements (request IDs, the key) are of no use.
struct S3ErrorReply: Sendable, Equatable {
    var code: String
    var message: String?

    /// The reply in `body`, or nil when it holds no `Code` element (not an S3 error document).
    init?(_ body: Data) {
        let text = String(decoding: body, as: UTF8.self)
        guard let code = Self.element("Code", in: text), !code.isEmpty else { return nil }
        self.code = code
        message = Self.element("Message", in: text).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `AccessDenied: Access Denied`, or the code alone.
    var summary: String {
        guard let message else { return code }
        return "\(code): \(message)"
    }

    /// The text of the first `<name>…</name>`, its XML entities decoded.
    private static func element(_ name: String, in text: String) -> String? {
        guard let open = text.firstRange(of: "<\(name)>"),
              let close = text[open.upperBound...].firstRange(of: "</\(name)>")
        else { return nil }
        return decodingEntities(String(text[open.upperBound..<close.lowerBound].trimmingWhitespace()))
    }

    /// The five predefined entities; `&amp;` last, so `&amp;lt;` stays `&lt;`.
    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'")
            .replacing("&amp;", with: "&")
    }
}
