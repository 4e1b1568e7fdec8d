import Foundation
import XCTest

/// Many imgfetch processes on one cache directory at once.
final class MultiProcessTests: EndToEndTestCase {
    func testParallelProcessesFetchEachURLOnceAndLeaveTheCacheWhole() throws {
        let names = (1...12).map { "image-\($0).png" }
        for name in names {
            try FileManager.default.copyItem(at: served.appendingPathComponent("alpha.png"), to: served.appendingPathComponent(name))
        }
        // Every URL six times, interleaved, each answer delayed so that processes overlap on a key.
        let list = (0..<6).flatMap { _ in names.map { url("/\($0)", ["delay_ms": "80"]) } }
        let listFile = try directory.write(Data(list.joined(separator: "\n").utf8), to: "list.txt")

        let script = "xargs -P8 -n1 \(Shell.quote(Imgfetch.binary.path)) get < \(Shell.quote(listFile.path))"
        let result = try Shell.run(script, environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(lines(result.stdout).count, list.count)
        let stats = try server.stats()
        for name in names {
            XCTAssertEqual(stats.requests["/\(name)"], 1, "\(name) was requested \(stats.requests["/\(name)"] ?? 0) times")
        }
        let verify = try imgfetch(["cache", "verify"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stderr.hasPrefix("imgfetch: verify: 12 checked, 0 damaged, 0 unindexed files"), verify.stderr)
        XCTAssertEqual(try cachedEntries().count, 12)
    }

    func testTwoPrefetchRunsOnOneCacheShareTheWork() throws {
        let list = (1...30).map { url("/lossless.webp", ["n": "\($0)", "delay_ms": "20"]) }
        let listFile = try directory.write(Data(list.joined(separator: "\n").utf8), to: "list.txt")
        let binary = Shell.quote(Imgfetch.binary.path), file = Shell.quote(listFile.path)

        let result = try Shell.run(
            "\(binary) prefetch -q \(file) & \(binary) prefetch -q \(file); s=$?; wait $! && exit $s",
            environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try requests("/lossless.webp"), 30, "every URL fetched once between the two runs")
        XCTAssertEqual(try cachedEntries().count, 30)
        XCTAssertEqual(try imgfetch(["cache", "verify"]).status, 0)
    }
}
