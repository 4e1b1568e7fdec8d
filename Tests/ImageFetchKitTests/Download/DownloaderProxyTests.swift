import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

final class DownloaderProxyTests: DownloadTestCase {
    /// libcurl reads the proxy variables itself; the test server answers proxy-style requests
    /// (absolute URLs in the request line) from its own files.
    func testHTTPProxyVariableIsHonoured() async throws {
        let data = try serveFile("a.jpg", bytes: 3000)
        setenv("http_proxy", server.baseURL.absoluteString, 1)
        defer { unsetenv("http_proxy") }
        let url = URL(string: "http://images.example.invalid/a.jpg")!
        let response = try await makeDownloader().load(DownloadRequest(url: url))
        XCTAssertEqual(response.body, data)
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }
}
