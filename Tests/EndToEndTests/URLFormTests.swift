import Foundation
import XCTest

/// URLs as users paste them: IPv6 literals, internationalised host names, spaces and non-ASCII
/// characters in paths, and a user name with a password (which is sent, never printed back).
final class URLFormTests: EndToEndTestCase {
    private var port: Int { server.url("/").port ?? 0 }

    func testAnIPv6LiteralIsFetchedAndKeyedAsWritten() throws {
        let address = "http://[::1]:\(port)/gray.png"

        let result = try imgfetch(["get", "--json", address])

        try XCTSkipIf(result.stdout.contains("Could not connect"), "no IPv6 loopback here")
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try jsonObjects(result.stdout).first?["url"] as? String, address)
        XCTAssertEqual(try cachedEntries().map(\.url), [address])
        XCTAssertEqual(try imgfetch(["get", "--json", address]).stdout.contains("\"cache\":\"disk\""), true)
    }

    func testAnInternationalisedHostNameIsConvertedAsCurlDoes() throws {
        // *.localhost resolves to the loopback in libcurl; the name reaches it as UTF-8 and
        // libcurl (with libidn2) sends its IDNA form, xn--bcher-kva.localhost.
        let address = "http://bücher.localhost:\(port)/gray.png"

        let first = try imgfetch(["get", address])
        let second = try imgfetch(["get", "--json", address])

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("\"cache\":\"disk\""), "one key for one name: \(second.stdout)")
        XCTAssertEqual(try requests("/gray.png"), 1)
    }

    func testSpacesAndNonASCIIInAPathArePercentEncodedForTheRequestAndTheKey() throws {
        try FileManager.default.copyItem(at: served.appendingPathComponent("gray.png"), to: served.appendingPathComponent("a b ü.png"))
        let typed = "http://127.0.0.1:\(port)/a b ü.png"
        let encoded = "http://127.0.0.1:\(port)/a%20b%20%C3%BC.png"

        let first = try imgfetch(["get", typed])
        let second = try imgfetch(["get", "--json", encoded])

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try requests("/a%20b%20%C3%BC.png"), 1, "sent as a browser sends it")
        XCTAssertTrue(second.stdout.contains("\"cache\":\"disk\""), "typed and encoded spellings share one entry: \(second.stdout)")
        XCTAssertEqual(try cachedEntries().map(\.url), [encoded])
    }

    func testAPasswordInTheURLIsSentButNeverPrintedOrStored() throws {
        let good = "http://ann:s3cret@127.0.0.1:\(port)/gray.png?auth=ann:s3cret"
        let bad = "http://ann:s3cret@127.0.0.1:\(port)/missing.png"

        let get = try imgfetch(["get", "-v", "--json", good, bad])
        let list = try imgfetch(["cache", "ls", "--json"])
        let show = try imgfetch(["cache", "show", good])

        XCTAssertEqual(get.status, 1, get.stderr)
        XCTAssertTrue(get.stdout.contains("\"url\":\"http://ann:***@127.0.0.1:\(port)/gray.png?auth=ann:s3cret\""), get.stdout)
        XCTAssertTrue(get.stderr.contains("imgfetch: http://ann:***@127.0.0.1:\(port)/missing.png: The server answered HTTP 404."), get.stderr)
        XCTAssertEqual(show.status, 0, show.stderr)
        for output in [get.stderr, list.stdout, show.stdout] {
            XCTAssertFalse(output.contains("s3cret@"), output)
        }
        XCTAssertEqual(try requests("/gray.png"), 1, "the credentials were sent: the server demands them")
        let stored = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path).filter { $0.hasPrefix("index.sqlite") }
        for name in stored {
            let bytes = try Data(contentsOf: cacheDirectory.appendingPathComponent(name))
            XCTAssertNil(bytes.range(of: Data("s3cret@".utf8)), "\(name) holds the password")
        }
    }
}
