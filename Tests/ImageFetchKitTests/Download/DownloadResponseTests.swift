import Foundation
@testable import ImageFetchKit
import XCTest

/// `Cache-Control` read for its max-age, as RFC 9111 reads it.
final class DownloadResponseTests: XCTestCase {
    private func maxAge(_ cacheControl: String?) -> Duration? {
        let url = URL(string: "http://127.0.0.1/a.png")!
        return DownloadResponse(
            url: url, effectiveURL: url, statusCode: 200, body: Data(), contentType: nil, etag: nil, lastModified: nil,
            cacheControl: cacheControl
        ).maxAge
    }

    func testMaxAgeIsReadFromItsDirective() {
        XCTAssertNil(maxAge(nil))
        XCTAssertNil(maxAge("public, immutable"))
        XCTAssertEqual(maxAge("public, max-age=3600"), .seconds(3600))
        XCTAssertEqual(maxAge("MAX-AGE=60"), .seconds(60))
        XCTAssertEqual(maxAge("max-age=60, no-cache"), .zero)
    }

    /// Found by the httpheaders fuzz target: `max-age=-06` gave a negative age. A value that is
    /// not delta-seconds is invalid freshness information, which RFC 9111 asks caches to treat as
    /// stale; one too large to hold is 2^31 seconds.
    func testAMaxAgeThatIsNotDeltaSecondsIsStale() {
        for text in ["max-age=-06", "max-age=+60", "max-age=1.5", "max-age=", "max-age=60s", "max-age=\"60\""] {
            XCTAssertEqual(maxAge(text), .zero, text)
        }
        XCTAssertEqual(maxAge("max-age=99999999999999999999999"), .seconds(1 << 31))
        XCTAssertEqual(maxAge("max-age=4294967296"), .seconds(1 << 31))
    }
}
