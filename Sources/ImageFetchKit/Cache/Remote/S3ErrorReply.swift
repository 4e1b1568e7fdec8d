import FoundationEssentials

/// The `Code` and `Message` of an S3 error reply (`<Error><Code>AccessDenied</Code><Message>Access
/// Denied</Message>…</Error>`), which say far more than the status: `SignatureDoesNotMatch`,
/// `NoSuchBucket`, `ExpiredToken`, `SlowDown` (STS's errors have the same two). Only those two
/// elements are read (`XMLElementText`): the others (request IDs, the key) are of no use.
struct S3ErrorReply: Sendable, Equatable {
    var code: String
    var message: String?

    /// The reply in `body`, or nil when it holds no `Code` element (not an S3 error document).
    init?(_ body: Data) {
        let text = String(decoding: body, as: UTF8.self)
        guard let code = XMLElementText.first("Code", in: text), !code.isEmpty else { return nil }
        self.code = code
        message = XMLElementText.first("Message", in: text).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `AccessDenied: Access Denied`, or the code alone.
    var summary: String {
        guard let message else { return code }
        return "\(code): \(message)"
    }
}
