import Foundation
import XCTest
@testable import ImageFetchKit

final class URLFormsTests: XCTestCase {
    func testOnlyThePasswordIsRedacted() {
        XCTAssertEqual(URL.redacting("http://ann:s3cret@h/a.png?u=x@y"), "http://ann:***@h/a.png?u=x@y")
        XCTAssertEqual(URL.redacting("http://ann@h/a.png"), "http://ann@h/a.png", "a user name alone stays")
        XCTAssertEqual(URL.redacting("http://h/a@b.png"), "http://h/a@b.png", "an @ in the path is not user information")
        XCTAssertEqual(URL.redacting("https://a:b:c@h:8/x"), "https://a:***@h:8/x")
    }

    func testTheKeyHoldsNoPassword() throws {
        let key = CacheKey(url: try XCTUnwrap(URL(string: "http://ann:s3cret@h/a.png")))
        XCTAssertEqual(key.rawValue, "http://ann:***@h/a.png")
    }

    func testAnInternationalisedHostGoesToLibcurlAsUTF8() throws {
        // FoundationEssentials (the binary's) percent-encodes such a host, full Foundation (this
        // test's) converts it to punycode; libcurl takes either the UTF-8 name or the punycode.
        let request = try XCTUnwrap(URL(string: "http://bücher.example/a b.png")).requestString
        XCTAssertTrue(["http://bücher.example/a%20b.png", "http://xn--bcher-kva.example/a%20b.png"].contains(request), request)
        XCTAssertEqual(try XCTUnwrap(URL(string: "http://[::1]:8080/a.png")).requestString, "http://[::1]:8080/a.png")
    }
}
