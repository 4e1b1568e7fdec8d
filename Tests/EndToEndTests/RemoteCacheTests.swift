import Foundation
import TestSupport
import XCTest

/// The remote tier on nginx's WebDAV module, shared by workers that split a list with `--shard`.
final class RemoteCacheTests: RemoteCacheTestCase {
    func testFourShardedWorkersFetchEachURLOnceAndAFifthGetsEveryURLFromTheTier() throws {
        let nginx = try startNginx()
        let tier = nginx.davURL.appendingPathComponent("team").absoluteString
        let urls = distinctURLs(24)
        let list = try writeList(urls)

        var taken = 0
        for index in 0..<4 {
            let result = try worker("worker\(index)", ["prefetch", "-q", "--shard", "\(index)/4", "--remote-cache", tier, "--json", list])
            XCTAssertEqual(result.status, 0, result.stderr)
            taken += try jsonObjects(result.stdout).count
        }
        XCTAssertEqual(taken, urls.count, "the shards are disjoint and cover the list")
        XCTAssertEqual(try originRequests(), urls.count, "each URL left its origin once")
        XCTAssertEqual(nginx.storedObjects().count, urls.count)
        XCTAssertTrue(nginx.storedObjects().allSatisfy { $0.hasPrefix("team/imgfetch-2/") }, "\(nginx.storedObjects())")
        XCTAssertEqual(try nginx.requests("HEAD"), [], "a miss is one GET answered 404, with no HEAD before it")
        XCTAssertEqual(try nginx.requests("GET").count, urls.count)

        try server.reset()
        let fifth = try worker("worker5", ["prefetch", "--remote-cache", tier, "--json", list])

        XCTAssertEqual(fifth.status, 0, fifth.stderr)
        XCTAssertEqual(try originRequests(), 0)
        XCTAssertEqual(try jsonObjects(fifth.stdout).map { $0["cache"] as? String }, Array(repeating: "remote", count: urls.count))
        XCTAssertTrue(fifth.stderr.contains("prefetch: 0 fetched, 24 from the remote cache, 0 already cached, 0 failed; "), fifth.stderr)
        XCTAssertTrue(fifth.stderr.contains(": 24 hits, 0 misses, 0 damaged; 0 uploaded, 0 not uploaded"), fifth.stderr)
        let again = try worker("worker5", ["prefetch", "--remote-cache", tier, list])
        XCTAssertTrue(again.stderr.contains("prefetch: 0 fetched, 24 already cached"), "a remote hit is stored locally: \(again.stderr)")
    }

    func testTheSummaryNamesTheShardAndHowManyURLsItTook() throws {
        let urls = distinctURLs(40)
        let list = try writeList(urls)
        var counts: [Int] = []
        for index in 0..<3 {
            let result = try worker("w\(index)", ["prefetch", "--shard", "\(index)/3", list])
            XCTAssertEqual(result.status, 0, result.stderr)
            let line = try XCTUnwrap(lines(result.stderr).first { $0.hasPrefix("imgfetch: shard \(index)/3 took ") }, result.stderr)
            XCTAssertTrue(line.hasSuffix(" of the list's 40 URLs"), line)
            counts.append(Int(line.split(separator: " ")[4]) ?? -1)
        }
        XCTAssertEqual(counts.reduce(0, +), 40, "\(counts)")
        XCTAssertTrue(counts.allSatisfy { $0 > 0 }, "\(counts)")
        XCTAssertEqual(try originRequests(), 40)
    }

    func testBadShardValuesExitTwo() throws {
        let list = try writeList(distinctURLs(1))
        for value in ["4/4", "-1/4", "1/0", "a/b", "1", "1/4/2", ""] {
            let result = try imgfetch(["prefetch", "--shard", value, list])
            XCTAssertEqual(result.status, 2, "\(value): \(result.stderr)")
        }
        XCTAssertEqual(try originRequests(), 0)
    }

    func testAGarbageObjectOnTheTierIsNeverServedAndTheOriginReplacesIt() throws {
        let nginx = try startNginx()
        let tier = nginx.davURL.absoluteString
        let urls = distinctURLs(3)
        let list = try writeList(urls)
        XCTAssertEqual(try worker("filler", ["prefetch", "--remote-cache", tier, list]).status, 0)
        let objects = nginx.storedObjects()
        XCTAssertEqual(objects.count, 3)
        // One object replaced by garbage, one with a byte of its image flipped, one cut short.
        let files = objects.map { nginx.davDirectory.appendingPathComponent($0) }
        try Data("<html>not an image</html>".utf8).write(to: files[0])
        var flipped = try Data(contentsOf: files[1])
        flipped[flipped.count / 3] ^= 0xFF
        try flipped.write(to: files[1])
        try Data(contentsOf: files[2]).dropLast(5).write(to: files[2])
        try server.reset()

        let fresh = try worker("fresh", ["prefetch", "--json", "--remote-cache", tier, list])

        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(try jsonObjects(fresh.stdout).map { $0["cache"] as? String }, ["network", "network", "network"])
        XCTAssertEqual(try originRequests(), 3)
        XCTAssertEqual(warnings(fresh).count, 1, fresh.stderr)
        XCTAssertTrue(warnings(fresh)[0].contains("damaged object"), fresh.stderr)
        XCTAssertTrue(fresh.stderr.contains("0 hits, 0 misses, 3 damaged; 3 uploaded"), fresh.stderr)

        try server.reset()
        let repaired = try worker("repaired", ["prefetch", "--json", "--remote-cache", tier, list])
        XCTAssertEqual(try jsonObjects(repaired.stdout).map { $0["cache"] as? String }, ["remote", "remote", "remote"])
        XCTAssertEqual(try originRequests(), 0)
    }

    func testAnObjectInTheEarlierSHA256FormatIsAMissThatTheOriginsUploadReplaces() throws {
        let nginx = try startNginx()
        let tier = nginx.davURL.absoluteString
        let urls = distinctURLs(2)
        let list = try writeList(urls)
        XCTAssertEqual(try worker("filler", ["prefetch", "--remote-cache", tier, list]).status, 0)
        // Each object rewritten as a build before format 2 wrote it: the image, then a version-1
        // trailer with its SHA-256 (computed here by sha256sum).
        for object in nginx.storedObjects() {
            let file = nginx.davDirectory.appendingPathComponent(object)
            let sealed = try Data(contentsOf: file)
            let trailer = try XCTUnwrap(sealed.lastRange(of: Data("imgfetch-remote-2 ".utf8)))
            let image = sealed[..<trailer.lowerBound]
            let imageFile = directory.url.appendingPathComponent("image")
            try image.write(to: imageFile)
            let sha256 = try Shell.run("sha256sum \(Shell.quote(imageFile.path)) | cut -c1-64").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(sha256.count, 64)
            let keyHash = (object as NSString).lastPathComponent
            var old = Data(image)
            old.append(contentsOf: "imgfetch-remote-1 key=\(keyHash) sha256=\(sha256) bytes=\(image.count)\n".utf8)
            try old.write(to: file)
        }
        try server.reset()

        let fresh = try worker("fresh", ["prefetch", "--json", "--remote-cache", tier, list])

        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(try jsonObjects(fresh.stdout).map { $0["cache"] as? String }, ["network", "network"])
        XCTAssertEqual(warnings(fresh), [], "an object of another format is no damage")
        XCTAssertTrue(fresh.stderr.contains(": 0 hits, 2 misses, 0 damaged; 2 uploaded"), fresh.stderr)
        try server.reset()
        let again = try worker("again", ["prefetch", "--json", "--remote-cache", tier, list])
        XCTAssertEqual(try jsonObjects(again.stdout).map { $0["cache"] as? String }, ["remote", "remote"])
        XCTAssertEqual(try originRequests(), 0)
    }

    func testReadModeReadsTheTierAndNeverWritesIt() throws {
        let nginx = try startNginx()
        let tier = nginx.davURL.absoluteString
        let list = try writeList(distinctURLs(4))

        let reader = try worker("reader", ["prefetch", "--remote-cache", tier, "--remote-cache-mode", "read", list])

        XCTAssertEqual(reader.status, 0, reader.stderr)
        XCTAssertEqual(nginx.storedObjects(), [])
        XCTAssertEqual(try nginx.requests("PUT"), [])
        XCTAssertEqual(try nginx.requests("GET").count, 4)

        XCTAssertEqual(try worker("writer", ["prefetch", "--remote-cache", tier, list]).status, 0)
        let second = try worker("reader2", ["prefetch", "--json", "--remote-cache", tier, "--remote-cache-mode", "read", list])
        XCTAssertEqual(try jsonObjects(second.stdout).compactMap { $0["cache"] as? String }, Array(repeating: "remote", count: 4))
        XCTAssertEqual(try nginx.requests("PUT").count, 4, "only the read-write worker wrote")
    }

    func testAnObjectOlderThanTheMaxAgeByItsLastModifiedIsAMiss() throws {
        let nginx = try startNginx()
        let tier = nginx.davURL.absoluteString
        let list = try writeList(distinctURLs(2))
        XCTAssertEqual(try worker("filler", ["prefetch", "--remote-cache", tier, list]).status, 0)
        // nginx sends a file's modification time as Last-Modified.
        let old = nginx.storedObjects()[0]
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -2 * 86400)], ofItemAtPath: nginx.davDirectory.appendingPathComponent(old).path)
        try server.reset()

        let fresh = try worker("fresh", ["prefetch", "--json", "--max-age", "1d", "--remote-cache", tier, list])

        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(try jsonObjects(fresh.stdout).compactMap { $0["cache"] as? String }.sorted(), ["network", "remote"])
        XCTAssertEqual(try originRequests(), 1)
        XCTAssertTrue(fresh.stderr.contains(": 1 hits, 1 misses, 0 damaged; 1 uploaded"), fresh.stderr)
    }

    func testGetUploadsThroughTheEnvironmentsTierBeforeItExits() throws {
        let nginx = try startNginx()
        let environment = ["IMGFETCH_REMOTE_CACHE": nginx.davURL.absoluteString + "/env"]

        let result = try worker("one", ["get", url("/baseline.jpg")], environment: environment)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(nginx.storedObjects().count, 1, "the upload finished before the process exited")
        XCTAssertTrue(nginx.storedObjects()[0].hasPrefix("env/imgfetch-2/"))
        let other = try worker("two", ["get", "--json", url("/baseline.jpg")], environment: environment)
        XCTAssertEqual(try jsonObjects(other.stdout).first?["cache"] as? String, "remote")
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    func testVariantsGoToTheTierAndAFreshWorkerTakesThemFromThere() throws {
        let nginx = try startNginx()
        let environment = ["IMGFETCH_REMOTE_CACHE": nginx.davURL.absoluteString + "/v"]
        let u = url("/baseline.jpg")

        let made = try worker("one", ["get", "--json", "--resize", "32x32", "--fit", "cover", u], environment: environment)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try jsonObjects(made.stdout).first?["transformed"] as? Bool, true)
        XCTAssertEqual(nginx.storedObjects().count, 2, "the original and its variant")

        let fresh = try worker("two", ["get", "--json", "--resize", "32x32", "--fit", "cover", u], environment: environment)
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        let object = try XCTUnwrap(jsonObjects(fresh.stdout).first)
        XCTAssertEqual(object["cache"] as? String, "remote")
        XCTAssertEqual(object["transformed"] as? Bool, false)
        XCTAssertEqual(object["variant"] as? String, "32x32 cover")
        XCTAssertEqual([object["width"] as? Int, object["height"] as? Int], [32, 32])
        XCTAssertEqual(try requests("/baseline.jpg"), 1, "the second worker never asked the origin")
    }

    func testAPasswordInTheURLIsNeverStoredWhenTheTierAnswers() throws {
        let nginx = try startNginx()
        let environment = ["IMGFETCH_REMOTE_CACHE": nginx.davURL.absoluteString + "/p"]
        let u = url("/gray.png", ["auth": "ann:s3cret"]).replacingOccurrences(of: "http://", with: "http://ann:s3cret@")
        XCTAssertEqual(try worker("one", ["get", u], environment: environment).status, 0)

        let fresh = try worker("two", ["get", "--json", u], environment: environment)
        XCTAssertEqual(try jsonObjects(fresh.stdout).first?["cache"] as? String, "remote", fresh.stderr)
        let listing = try worker("two", ["cache", "ls", "--json"])
        XCTAssertFalse(listing.stdout.contains("s3cret@"), listing.stdout)
        XCTAssertTrue(listing.stdout.contains("ann:***@"), listing.stdout)
    }

    func testAMalformedRemoteCacheFlagExitsTwoAndTheSameFromTheEnvironmentIsAWarning() throws {
        let list = try writeList(distinctURLs(1))
        for value in ["ftp://host/x", "not a url", "s3://", "http://host/x?q=1"] {
            XCTAssertEqual(try imgfetch(["prefetch", "--remote-cache", value, list]).status, 2, value)
            let fromEnvironment = try imgfetch(["prefetch", list], environment: ["IMGFETCH_REMOTE_CACHE": value])
            XCTAssertEqual(fromEnvironment.status, 0, "\(value) from the environment: \(fromEnvironment.stderr)")
            XCTAssertTrue(fromEnvironment.stderr.hasPrefix("imgfetch: warning: IMGFETCH_REMOTE_CACHE: "), fromEnvironment.stderr)
            XCTAssertTrue(fromEnvironment.stderr.contains("This run goes without the remote cache."), fromEnvironment.stderr)
        }
        XCTAssertEqual(try imgfetch(["prefetch", "--remote-cache-mode", "write", list]).status, 2)
        XCTAssertEqual(try originRequests(), 1, "the runs without the tier loaded the URL once, then from the disk cache")
    }

    func testAGetOfACachedImageSucceedsWhateverTheEnvironmentsTierSettingsSay() throws {
        XCTAssertEqual(try worker("w", ["get", url("/baseline.jpg")]).status, 0)
        let settings: [[String: String]] = [
            ["IMGFETCH_REMOTE_CACHE": "s3://images/x", "AWS_ACCESS_KEY_ID": "only-the-key"],
            ["IMGFETCH_REMOTE_CACHE": "ftp://nowhere/x"],
            ["IMGFETCH_REMOTE_CACHE": "http://127.0.0.1:9/x", "IMGFETCH_REMOTE_CACHE_MODE": "write"],
        ]
        for environment in settings {
            let hit = try worker("w", ["get", url("/baseline.jpg")], environment: environment)
            XCTAssertEqual(hit.status, 0, "\(environment): \(hit.stderr)")
            XCTAssertTrue(hit.stdout.hasSuffix(".jpg\n"), hit.stdout)
        }
        let flag = try worker("w", ["get", "--remote-cache", "s3://images/x", url("/baseline.jpg")], environment: ["AWS_ACCESS_KEY_ID": "only-the-key"])
        XCTAssertEqual(flag.status, 0, "the flag's own text is fine; the environment's half key is a warning: \(flag.stderr)")
        XCTAssertTrue(flag.stderr.contains("Set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), flag.stderr)
    }

    func testTheModeVariableMakesARunReadOnlyAndTheFlagOverridesIt() throws {
        let nginx = try startNginx()
        let tier = nginx.davURL.absoluteString
        let list = try writeList(distinctURLs(4))

        let readOnly = try worker("r", ["prefetch", "--remote-cache", tier, list], environment: ["IMGFETCH_REMOTE_CACHE_MODE": "read"])
        XCTAssertEqual(readOnly.status, 0, readOnly.stderr)
        XCTAssertEqual(try nginx.requests("PUT"), [])
        XCTAssertEqual(nginx.storedObjects(), [])

        let overridden = try worker("w", ["prefetch", "--remote-cache", tier, "--remote-cache-mode", "read-write", list],
                                    environment: ["IMGFETCH_REMOTE_CACHE_MODE": "read"])
        XCTAssertEqual(overridden.status, 0, overridden.stderr)
        XCTAssertEqual(nginx.storedObjects().count, 4)
    }
}
