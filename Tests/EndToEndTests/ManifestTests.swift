import Foundation
import XCTest

/// The manifest every JSON record is: what was fetched, from where, as what, with which bytes;
/// and `--manifest FILE`, the same records in a file while stdout stays as it is.
final class ManifestTests: EndToEndTestCase {
    func sha256(_ name: String) throws -> String {
        let result = try Shell.run("sha256sum \(Shell.quote(Self.fixtures.appendingPathComponent(name).path))")
        return String(result.stdout.prefix(64))
    }

    func testAFetchRecordsStatusFinalURLAfterARedirectContentTypeAndTheBytesDigest() throws {
        let redirected = url("/start.png", ["redirect_to": url("/gray.png")])
        let result = try imgfetch(["get", "--json", redirected])

        XCTAssertEqual(result.status, 0, result.stderr)
        let record = try XCTUnwrap(jsonObjects(result.stdout).first)
        XCTAssertEqual(record["status"] as? Int, 200)
        XCTAssertEqual(record["final_url"] as? String, url("/gray.png"))
        XCTAssertEqual(record["content_type"] as? String, "image/png")
        XCTAssertEqual(record["sha256"] as? String, try sha256("gray.png"))
        XCTAssertEqual(record["cache"] as? String, "network")
        XCTAssertTrue(record["original_width"] is NSNull)
    }

    func testAHitKeepsTheDigestAndHasNoResponse() throws {
        XCTAssertEqual(try imgfetch(["get", url("/baseline.jpg")]).status, 0)

        let hit = try XCTUnwrap(jsonObjects(try imgfetch(["get", "--json", url("/baseline.jpg")]).stdout).first)
        let again = try XCTUnwrap(jsonObjects(try imgfetch(["get", "--json", url("/baseline.jpg")]).stdout).first)

        XCTAssertEqual(hit["cache"] as? String, "disk")
        XCTAssertEqual(hit["sha256"] as? String, try sha256("baseline.jpg"))
        XCTAssertEqual(again["sha256"] as? String, hit["sha256"] as? String)
        for key in ["status", "final_url", "content_type"] { XCTAssertTrue(hit[key] is NSNull, key) }
    }

    func testAVariantRecordsItsOriginalsSize() throws {
        let result = try imgfetch(["get", "--json", "--resize", "16x16", url("/baseline.jpg")])

        XCTAssertEqual(result.status, 0, result.stderr)
        let record = try XCTUnwrap(jsonObjects(result.stdout).first)
        XCTAssertEqual(record["width"] as? Int, 16)
        XCTAssertEqual(record["original_width"] as? Int, 64)
        XCTAssertEqual(record["original_height"] as? Int, 48)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(record["path"] as? String)))
        let digest = try Shell.run("sha256sum \(Shell.quote(try XCTUnwrap(record["path"] as? String)))").stdout.prefix(64)
        XCTAssertEqual(record["sha256"] as? String, String(digest))
        XCTAssertEqual(record["bytes"] as? Int, bytes.count)
    }

    func testManifestFileGetsTheRecordsAsJSONLinesWhileStdoutPrintsPaths() throws {
        let manifest = directory.path("run.jsonl")
        let result = try imgfetch(["get", "--manifest", manifest.path, url("/gray.png"), url("/missing.png")])

        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(lines(result.stdout).count, 1, "stdout keeps its one path per loaded URL")
        let records = try jsonObjects(String(decoding: try Data(contentsOf: manifest), as: UTF8.self))
        XCTAssertEqual(records.map { $0["url"] as? String }, [url("/gray.png"), url("/missing.png")])
        XCTAssertEqual(records[0]["path"] as? String, lines(result.stdout).first)
        XCTAssertEqual(records[1]["error"] as? String, "The server answered HTTP 404.")
    }

    func testManifestEndingInCSVHasAHeaderAndQuotedFields() throws {
        let manifest = directory.path("run.csv")
        let list = try directory.write(Data([url("/gray.png"), url("/missing.png")].joined(separator: "\n").utf8), to: "list.txt")

        let result = try imgfetch(["prefetch", "-j", "1", "--manifest", manifest.path, list.path])

        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        let rows = lines(String(decoding: try Data(contentsOf: manifest), as: UTF8.self))
        XCTAssertEqual(rows.first, "url,path,output,format,width,height,bytes,sha256,status,final_url,content_type,cache,variant,transformed,original_width,original_height,line,shard,elapsed_ms,error")
        let gray = try XCTUnwrap(rows.first { $0.hasPrefix(url("/gray.png") + ",") })
        XCTAssertTrue(gray.contains(",png,64,48,\(try fixture("gray.png").count),\(try sha256("gray.png")),200,"), gray)
        let missing = try XCTUnwrap(rows.first { $0.hasPrefix(url("/missing.png") + ",") })
        XCTAssertTrue(missing.hasSuffix(",The server answered HTTP 404."), missing)
    }

    func testAManifestThatCannotBeWrittenFailsBeforeAnyLoad() throws {
        let result = try imgfetch(["get", "--manifest", directory.path("no/such/dir/m.jsonl").path, url("/gray.png")])

        XCTAssertEqual(result.status, 8)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: Cannot write the manifest "), result.stderr)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testPrefetchRecordsCarryTheListsLineNumbersPastCommentsAndBlankLines() throws {
        let text = "# images\n\n\(url("/gray.png"))\n   \n# again\n\(url("/static.gif"))\n\(url("/gray.png"))\n"
        let list = try directory.write(Data(text.utf8), to: "list.txt")

        let result = try imgfetch(["prefetch", "--json", list.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        let records = try jsonObjects(result.stdout)
        let lines = records.map { "\($0["line"] as? Int ?? -1) \($0["url"] as? String ?? "")" }
        XCTAssertEqual(Set(lines), ["3 \(url("/gray.png"))", "6 \(url("/static.gif"))", "7 \(url("/gray.png"))"])
        XCTAssertTrue(records.allSatisfy { $0["shard"] is NSNull })
    }

    func testPrefetchRecordsNameTheShard() throws {
        let urls = ["gray.png", "static.gif", "alpha.png", "baseline.jpg"].map { url("/\($0)") }
        let list = try directory.write(Data(urls.joined(separator: "\n").utf8), to: "list.txt")

        let records = try (0..<2).flatMap { index in
            try jsonObjects(try imgfetch(["prefetch", "--json", "--shard", "\(index)/2", list.path]).stdout).map { ($0, index) }
        }

        XCTAssertEqual(records.count, urls.count, "the shards together are the list")
        for (record, index) in records {
            XCTAssertEqual(record["shard"] as? String, "\(index)/2")
            let url = try XCTUnwrap(record["url"] as? String)
            XCTAssertEqual(record["line"] as? Int, try XCTUnwrap(urls.firstIndex(of: url)) + 1)
        }
    }

    func testInfoOfAURLAddsTheManifestToItsOwnKeys() throws {
        let result = try imgfetch(["info", "--json", url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(jsonObjects(result.stdout).first)
        XCTAssertEqual(object["file"] as? String, url("/gray.png"))
        XCTAssertEqual(object["frames"] as? Int, 1)
        XCTAssertEqual(object["url"] as? String, url("/gray.png"))
        XCTAssertEqual(object["status"] as? Int, 200)
        XCTAssertEqual(object["content_type"] as? String, "image/png")
        XCTAssertEqual(object["sha256"] as? String, try sha256("gray.png"))
        XCTAssertNil(object["error"], "info reports failures on stderr")
    }
}
