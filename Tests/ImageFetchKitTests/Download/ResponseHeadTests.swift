import XCTest
@testable import ImageFetchKit

final class ResponseHeadTests: XCTestCase {
    private func length(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBytes { ResponseHead.length(in: $0) }
    }

    private func head(_ text: String) -> ResponseHead? {
        Array(text.utf8).withUnsafeBytes { ResponseHead($0) }
    }

    func testTheHeadEndsAtTheFirstBlankLine() {
        XCTAssertEqual(length("HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody"), 25)
        XCTAssertEqual(length("HTTP/1.1 200 OK\nA: b\n\nbody"), 22)
        XCTAssertNil(length("HTTP/1.1 200 OK\r\nA: b\r\n"))
        XCTAssertNil(length("HTTP/1.1 200 OK\r\nA: b\r\n\r"))
    }

    func testStatusAndFieldsAreRead() throws {
        let parsed = try XCTUnwrap(head("HTTP/1.0 404 Not Found\r\nContent-Length:  12 \r\nETag: \"x\"\r\ncontent-length: 13\r\n\r\n"))
        XCTAssertEqual(parsed.status, 404)
        XCTAssertEqual(parsed.value(of: "CONTENT-LENGTH"), "12")
        XCTAssertEqual(parsed.count(of: "Content-Length"), 2)
        XCTAssertEqual(parsed.value(of: "etag"), "\"x\"")
        XCTAssertNil(parsed.value(of: "Location"))
        XCTAssertEqual(head("HTTP/1.1 200\r\n\r\n")?.status, 200)
    }

    /// One Content-Length of plain digits is a length; two, or one of anything else, is left to libcurl.
    func testTheDeclaredLengthIsOneFieldOfDigits() {
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\n\r\n")?.declaredLength, ResponseHead.DeclaredLength.none)
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\ncontent-length: 12\r\n\r\n")?.declaredLength, .bytes(12))
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nContent-Length: 12\r\nContent-Length: 12\r\n\r\n")?.declaredLength, .unreadable)
        for value in ["+12", "12a", "-1", "", "99999999999999999999"] {
            XCTAssertEqual(head("HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\n")?.declaredLength, .unreadable, value)
        }
    }

    /// Whatever libcurl may read by rules of its own is not read here.
    func testHeadsItDoesNotReadPlainlyAreRefused() {
        XCTAssertNil(head("HTTP/2 200\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 2000 OK\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 +20 OK\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 000 OK\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 600 Beyond\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 099 Before\r\n\r\n"))
        XCTAssertNil(head("ICY 200 OK\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 200 OK\r\nno colon\r\n\r\n"))
        XCTAssertNil(head("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n"))
    }
}
