import FoundationEssentials
@testable import ImageFetchKit

extension FuzzTarget {
    /// The response headers imgfetch reads itself rather than through libcurl: `Cache-Control`
    /// (the first line, for its max-age) and an HTTP date (the second, as a remote tier's
    /// `Last-Modified` is read). Retry-After, Content-Type and the validators are libcurl's or are
    /// kept as sent. A max-age is never negative; a date that parses reads back as its fields.
    static let httpHeaders = FuzzTarget(name: "httpheaders", summary: "Cache-Control max-age and HTTP dates", seedSuffixes: []) { data in
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let url = URL(string: "http://127.0.0.1/a.png")!
        let response = DownloadResponse(
            url: url, effectiveURL: url, statusCode: 200, body: Data(), contentType: nil, etag: nil, lastModified: nil,
            cacheControl: lines[0])
        if let age = response.maxAge { precondition(age >= .zero, "a negative max-age from \(lines[0])") }
        guard lines.count > 1, let date = HTTPDate.parse(lines[1]) else { return }
        let seconds = date.timeIntervalSince1970
        precondition(seconds.isFinite, "a date that is not a number from \(lines[1])")
        // The fields of a date that parsed are in their ranges, so it names one instant.
        let clock = lines[1].split(separator: " ", omittingEmptySubsequences: false)[4].split(separator: ":").compactMap { Int($0) }
        precondition(clock.count == 3 && clock[0] < 24 && clock[1] < 60 && clock[2] <= 60, "a clock out of range in \(lines[1])")
    }
}
