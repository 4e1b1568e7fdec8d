import Foundation
import XCTest
@testable import ImageFetchKit

final class LoaderErrorTests: XCTestCase {
    private let url = URL(string: "http://example.com/a.jpg")!

    private func download(_ kind: DownloadError.Kind) -> LoaderError {
        .download(url, DownloadError(url: url, kind: kind))
    }

    func testHTTPClientErrorsArePermanentAndServerErrorsAreNot() {
        XCTAssertTrue(download(.http(status: 404)).isPermanent)
        XCTAssertFalse(download(.http(status: 503)).isPermanent)
        XCTAssertFalse(download(.http(status: 429)).isPermanent)
        XCTAssertEqual(download(.http(status: 404)).category, .http)
    }

    func testNetworkClassFailuresAreNeverPermanent() {
        for kind: DownloadError.Kind in [.dns, .connect, .tls, .timeout, .connectionLost, .truncated, .cancelled] {
            XCTAssertFalse(download(kind).isPermanent, "\(kind)")
            XCTAssertEqual(download(kind).category, .network, "\(kind)")
        }
    }

    func testInvalidImagesAndOversizedBodiesArePermanentNotAnImageFailures() {
        XCTAssertTrue(LoaderError.invalidImage(url, .truncated(.jpeg)).isPermanent)
        XCTAssertEqual(download(.tooLarge(limit: 10)).category, .notAnImage)
        XCTAssertTrue(download(.tooLarge(limit: 10)).isPermanent)
    }

    func testAMissingCodecLibraryIsAFileErrorNeverRememberedAsABadImage() {
        let error = LoaderError.invalidImage(url, .libraryUnavailable(.png, reason: "cannot load libpng16.so.16"))
        XCTAssertFalse(error.isPermanent, "the image may be fine: it must not go on the failed-URL list")
        XCTAssertEqual(error.category, .file)
        XCTAssertEqual(error.reason, "PNG images cannot be decoded here: cannot load libpng16.so.16.")
    }

    func testDescriptionNamesTheURLAndTheCauseWithoutRepeatingTheURL() {
        let error = download(.http(status: 404))
        XCTAssertEqual(error.description, "http://example.com/a.jpg: The server answered HTTP 404.")
        let detailed = LoaderError.download(url, DownloadError(url: url, kind: .connect, detail: "Connection refused"))
        XCTAssertEqual(detailed.reason, "Could not connect to the server: Connection refused.")
    }

    func testBlockedReasonSaysHowToRetry() {
        let error = LoaderError.blocked(url, reason: "The server answered HTTP 404.", failedAt: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(error.reason, "Skipped: it failed at 1970-01-01T00:00:00Z (The server answered HTTP 404); use --retry-failed to fetch it again.")
        XCTAssertEqual(error.category, .blocked)
    }
}
