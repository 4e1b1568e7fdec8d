import Foundation
import ImageFetchKit
import XCTest

/// The cache and network flags shared by `get` and `prefetch`, each run against the test server.
final class LoaderOptionTests: EndToEndTestCase {
    func testRefreshWith304KeepsTheFileAndRenewsTheEntry() throws {
        let u = url("/gray.png", ["etag": "1"])
        let first = try imgfetch(["get", u])
        let before = try XCTUnwrap(cachedEntries().first)

        let refreshed = try imgfetch(["get", "--refresh", "--json", u])

        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        let object = try XCTUnwrap(jsonObjects(refreshed.stdout).first)
        XCTAssertEqual(object["cache"] as? String, "disk", "a 304 serves the cached file")
        XCTAssertEqual(object["path"] as? String, first.stdout.trimmingCharacters(in: .newlines))
        XCTAssertEqual(try requests("/gray.png"), 2)
        let after = try XCTUnwrap(cachedEntries().first)
        XCTAssertGreaterThan(after.fetchedAt, before.fetchedAt, "a 304 renews the entry")
        XCTAssertEqual(after.validators.etag, before.validators.etag)
    }

    func testRefreshWith200ReplacesTheEntry() throws {
        let u = url("/changing.png", ["etag": "1"])
        try FileManager.default.copyItem(at: served.appendingPathComponent("gray.png"), to: served.appendingPathComponent("changing.png"))
        try imgfetch(["get", u])
        try FileManager.default.removeItem(at: served.appendingPathComponent("changing.png"))
        try FileManager.default.copyItem(at: served.appendingPathComponent("palette.png"), to: served.appendingPathComponent("changing.png"))

        let refreshed = try imgfetch(["get", "--refresh", "--json", u])

        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        let object = try XCTUnwrap(jsonObjects(refreshed.stdout).first)
        XCTAssertEqual(object["cache"] as? String, "network")
        let path = try XCTUnwrap(object["path"] as? String)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try fixture("palette.png"))
        XCTAssertEqual(try cachedEntries().count, 1)
    }

    func testMaxAgeTreatsOlderEntriesAsMissing() throws {
        try imgfetch(["get", url("/gray.png")])
        let fresh = try imgfetch(["get", "--max-age", "1h", "--json", url("/gray.png")])
        let stale = try imgfetch(["get", "--max-age", "0s", "--json", url("/gray.png")])

        XCTAssertEqual(try jsonObjects(fresh.stdout).first?["cache"] as? String, "disk")
        XCTAssertEqual(try jsonObjects(stale.stdout).first?["cache"] as? String, "network")
        XCTAssertEqual(try requests("/gray.png"), 2)
    }

    func testHeaderFlagIsSentWithTheRequest() throws {
        let u = url("/gray.png", ["auth": "ann:secret"])
        let token = Data("ann:secret".utf8).base64EncodedString()

        XCTAssertEqual(try imgfetch(["get", u]).status, 4)
        let result = try imgfetch(["get", "--retry-failed", "-H", "Authorization: Basic \(token)", u])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testUserFlagAuthenticates() throws {
        let u = url("/gray.png", ["auth": "ann:secret"])
        let denied = try imgfetch(["get", "--retry-failed", u])
        let allowed = try imgfetch(["get", "--retry-failed", "--user", "ann:secret", u])

        XCTAssertEqual(denied.status, 4)
        XCTAssertTrue(denied.stderr.contains("HTTP 401"), denied.stderr)
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }

    func testTimeoutEndsAStalledTransferAsANetworkFailure() throws {
        let result = try imgfetch(["get", "--timeout", "1", url("/baseline.jpg", ["stall_after": "100"])])

        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("timed out"), result.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testRetryRepeatsTransientFailures() throws {
        let u = url("/gray.png", ["fail_times": "2", "retry_after": "0"])
        let result = try imgfetch(["get", "--retry", "2", "--json", u])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try requests("/gray.png"), 3)
    }

    func testWithoutRetryATransientFailureFailsAndIsNotRemembered() throws {
        let u = url("/gray.png", ["fail_times": "1"])
        let first = try imgfetch(["get", u])
        let second = try imgfetch(["get", u])

        XCTAssertEqual(first.status, 4)
        XCTAssertTrue(first.stderr.contains("HTTP 503"), first.stderr)
        XCTAssertEqual(second.status, 0, "a 503 is transient: never on the failed-URL list")
    }

    func testMaxBytesRefusesALargerBody() throws {
        let result = try imgfetch(["get", "--max-bytes", "100", url("/baseline.jpg")])

        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("--max-bytes"), result.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testMaxPixelsRefusesALargerImage() throws {
        let result = try imgfetch(["get", "--max-pixels", "1000", url("/gray.png")])

        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("more than the limit of 1000 pixels"), result.stderr)
    }

    func testDecompressionBombIsRefusedFromItsHeader() throws {
        let result = try imgfetch(["get", url("/bomb.png")])

        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("100000×100000"), result.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testVerifyDecodeRefusesDataThatOnlyLooksWhole() throws {
        // The header and structure are fine; the compressed pixel data is not.
        let header = try imgfetch(["get", url("/corrupt-data.png")])
        let decode = try imgfetch(["get", "--verify", "decode", url("/corrupt-data.png", ["copy": "2"])])

        XCTAssertEqual(header.status, 0, header.stderr)
        XCTAssertEqual(decode.status, 5)
        XCTAssertTrue(decode.stderr.contains("corrupt"), decode.stderr)
        XCTAssertEqual(try cachedEntries().count, 1)
    }

    func testIgnoreQueryKeysSignedURLsAsOneEntry() throws {
        try imgfetch(["get", "--ignore-query", url("/gray.png", ["sig": "1"])])
        let second = try imgfetch(["get", "--ignore-query", "--json", url("/gray.png", ["sig": "2"])])

        XCTAssertEqual(try jsonObjects(second.stdout).first?["cache"] as? String, "disk")
        XCTAssertEqual(try requests("/gray.png"), 1)
        XCTAssertEqual(try cachedEntries().first?.key.rawValue, url("/gray.png"))
    }

    func testIgnoreParamDropsOnlyTheNamedParameter() throws {
        try imgfetch(["get", "--ignore-param", "sig", url("/gray.png", ["sig": "1", "w": "2"])])
        let same = try imgfetch(["get", "--ignore-param", "sig", "--json", url("/gray.png", ["sig": "9", "w": "2"])])
        let other = try imgfetch(["get", "--ignore-param", "sig", "--json", url("/gray.png", ["sig": "1", "w": "3"])])

        XCTAssertEqual(try jsonObjects(same.stdout).first?["cache"] as? String, "disk")
        XCTAssertEqual(try jsonObjects(other.stdout).first?["cache"] as? String, "network")
    }
}

/// TLS: verified by default, a CA file or an explicit `--insecure` to accept a self-signed server.
final class TLSOptionTests: EndToEndTestCase {
    override var useTLS: Bool { true }

    func testSelfSignedServerIsRefusedByDefault() throws {
        let result = try imgfetch(["get", url("/gray.png")])

        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("secure connection failed"), result.stderr)
    }

    func testCacertTrustsTheServer() throws {
        let result = try imgfetch(["get", "--cacert", try XCTUnwrap(server.certificateFile), url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testInsecureSkipsVerification() throws {
        let result = try imgfetch(["get", "--insecure", url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
