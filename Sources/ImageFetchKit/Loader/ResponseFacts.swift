/// What a manifest reports of the response that brought an image: status, final URL, type.
public struct ResponseFacts: Sendable, Equatable {
    /// The final HTTP status (200, or 206 for a resumed body).
    public var status: Int
    /// The URL the body came from, after redirects (redacted: no password).
    public var finalURL: String
    /// The Content-Type header, as the server sent it.
    public var contentType: String?

    init(_ response: DownloadResponse) {
        status = response.statusCode
        finalURL = response.effectiveURL.redactedString
        contentType = response.contentType
    }
}
