import Foundation
import TestSupport
import XCTest

/// The tier's health rules against nginx WebDAV behind a fault-injecting proxy (`FaultProxy`):
/// occasional errors are retried, refused uploads leave reads alone, a slow tier is skipped.
/// Each test fills the tier through nginx directly, then reads it through the proxy.
final class RemoteCacheHealthTests: RemoteCacheTestCase {
    private func fill(_ nginx: NginxServer, with urls: [String]) throws {
        let filled = try worker("filler", ["prefetch", "-v", "--remote-cache", nginx.davURL.absoluteString, try writeList(urls, name: "fill.txt")])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        XCTAssertEqual(nginx.storedObjects().count, urls.count, lines(filled.stderr).filter { !$0.contains(" network ") }.joined(separator: "\n"))
        try server.reset()
    }

    /// The summary's count of loads that skipped the tier (sent to the origin for its speed); nil
    /// when it names none.
    private func skippedLoads(_ stderr: String) -> Int? {
        guard let match = stderr.firstMatch(of: /; slower than the origin \d+ times?, (\d+) loads skipped it/) else { return nil }
        return Int(match.1)
    }

    private func cacheTypes(_ result: Imgfetch.Result) throws -> [String: Int] {
        try jsonObjects(result.stdout).reduce(into: [:]) { counts, object in counts[object["cache"] as? String ?? "?", default: 0] += 1 }
    }

    func testEveryTenthTierRequestAnswered500StillServesTheObjectsFromTheTier() throws {
        let nginx = try startNginx()
        let urls = distinctURLs(60)
        try fill(nginx, with: urls)
        let proxy = try FaultProxy.start(upstream: nginx.davURL, faults: .init(failEvery: 10))

        let fresh = try worker("fresh", ["prefetch", "-v", "--json", "--remote-cache", proxy.url(for: nginx.davURL).absoluteString, try writeList(urls)])

        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        let types = try cacheTypes(fresh)
        // A worker whose first reads took over 50 ms, with no origin fetch yet to compare them
        // with, sends at most 16 loads to the origin to time it (RemoteSpeedRule), each counted
        // as skipping the tier: in one CI run the reads through the Python proxy took 51 ms and
        // 12 loads went (47 from the tier). That is the speed rule's doing, not the errors'.
        let skipped = skippedLoads(fresh.stderr) ?? 0
        XCTAssertLessThanOrEqual(skipped, 16, fresh.stderr)
        XCTAssertGreaterThanOrEqual(types["remote", default: 0] + skipped, 48, "at least 80 % from the tier: \(types) \(fresh.stderr)")
        XCTAssertEqual(try originRequests(), types["network", default: 0])
        XCTAssertGreaterThan(try proxy.stats().faults["500", default: 0], 0, "the proxy did fail requests")
        XCTAssertEqual(warnings(fresh), [], "isolated errors pause nothing")
        XCTAssertTrue(fresh.stderr.contains("a read is tried once more: The server answered HTTP 500."), fresh.stderr)
        XCTAssertTrue(fresh.stderr.range(of: #"; [1-9][0-9]* retried"#, options: .regularExpression) != nil, fresh.stderr)
    }

    func testUploadsAnswered403MakeTheRunReadOnlyAndEveryPresentObjectStaysReadable() throws {
        let nginx = try startNginx()
        let urls = distinctURLs(60)
        // Every other URL on the tier: misses from the start, whose origin fetches time the
        // origin, so no load of a present object is sent there to time it (RemoteSpeedRule).
        try fill(nginx, with: urls.indices.filter { $0 % 2 == 0 }.map { urls[$0] })
        let proxy = try FaultProxy.start(upstream: nginx.davURL, faults: .init(putStatus: 403))

        let worker = try worker("w", ["prefetch", "--json", "--remote-cache", proxy.url(for: nginx.davURL).absoluteString, try writeList(urls)])

        XCTAssertEqual(worker.status, 0, worker.stderr)
        let types = try cacheTypes(worker)
        // A worker that sees no answer 50 ms after the start sends the loads behind its first
        // reads to the origin (RemoteSpeedRule): under ThreadSanitizer 20 of the present objects
        // came from there, and 11 once in a full `swift test` here. Each is one of the loads its
        // summary counts as skipping the tier; with none, every present object came from it.
        let skipped = skippedLoads(worker.stderr) ?? 0
        XCTAssertEqual(types["remote", default: 0] + types["network", default: 0], 60, "\(types)")
        XCTAssertLessThanOrEqual(types["remote", default: 0], 30, "\(types)")
        XCTAssertGreaterThanOrEqual(types["remote", default: 0], 30 - skipped, "\(types), \(skipped) skipped: \(worker.stderr)")
        XCTAssertEqual(try originRequests(), types["network", default: 0])
        XCTAssertEqual(warnings(worker).count, 1, worker.stderr)
        XCTAssertTrue(warnings(worker).first?.contains("refused an upload (The server answered HTTP 403") == true, worker.stderr)
        XCTAssertTrue(warnings(worker).first?.contains("this run only reads from it") == true, worker.stderr)
        XCTAssertTrue(worker.stderr.contains("; read-only after a refused upload"), worker.stderr)
        // Only the uploads already under way when the first refusal came were sent.
        XCTAssertLessThanOrEqual(try proxy.stats().requests["PUT", default: 0], 4)
        XCTAssertEqual(nginx.storedObjects().count, 30)
    }

    func testATierMadeOneSecondSlowCostsAtMostThreeSecondsMoreThanTheOriginAlone() throws {
        let nginx = try startNginx()
        let urls = distinctURLs(300)
        let list = try writeList(urls)
        let proxy = try FaultProxy.start(upstream: nginx.davURL, faults: .init(delay: .seconds(1)))

        var start = ContinuousClock.now
        let originAlone = try worker("alone", ["prefetch", list])
        let alone = ContinuousClock.now - start
        XCTAssertEqual(originAlone.status, 0, originAlone.stderr)
        start = ContinuousClock.now
        let slow = try worker("slow", ["prefetch", "-v", "--remote-cache", proxy.url(for: nginx.davURL).absoluteString, list])
        let withTier = ContinuousClock.now - start

        XCTAssertEqual(slow.status, 0, slow.stderr)
        let decisions = lines(slow.stderr).filter { !$0.hasPrefix("imgfetch: network ") }.joined(separator: "\n")
        XCTAssertLessThanOrEqual(withTier - alone, .seconds(3), "origin alone \(alone), with the slow tier \(withTier): \(decisions)")
        // No read answered soon after the start, so the loads behind the first reads (one a
        // read slot, -j 6) went to the origin rather than wait for them: the loads were done
        // about when the first reads answered, a second in (waiting for them, 2 s or more).
        // Where the origin alone takes longer than that (under ThreadSanitizer on a loaded
        // machine), the first misses, a second slow, start the check and the loads left go on
        // to the origin: at most one more second, for the load whose read checks (sending
        // them back to the tier cost two: 3.3 s).
        func loadsTook(_ run: Imgfetch.Result) -> Double {
            run.stderr.firstMatch(of: /prefetch: .* fetched in ([0-9.]+) s/).flatMap { Double($0.1) } ?? .infinity
        }
        XCTAssertLessThanOrEqual(loadsTook(slow), max(1.6, loadsTook(originAlone) + 1.3), "origin alone: \(originAlone.stderr)\n\(decisions)")
        XCTAssertTrue(slow.stderr.contains("no read has answered 50 ms after the start; loads go to the origin until one does"), slow.stderr)
        XCTAssertGreaterThanOrEqual(skippedLoads(slow.stderr) ?? 0, 280, slow.stderr)
    }


    func testASlowTierThatHoldsEveryObjectIsComparedWithTheOriginAndSkipped() throws {
        let nginx = try startNginx()
        let urls = distinctURLs(400)
        try fill(nginx, with: urls)
        let proxy = try FaultProxy.start(upstream: nginx.davURL, faults: .init(delay: .milliseconds(200)))

        // Two transfers at once, so the origin is still busy when the first reads answer.
        let start = ContinuousClock.now
        let slow = try worker("slow", ["prefetch", "-v", "-j", "2", "--remote-cache", proxy.url(for: nginx.davURL).absoluteString, try writeList(urls)])
        let elapsed = ContinuousClock.now - start
        let decisions = lines(slow.stderr).filter { !$0.hasPrefix("imgfetch: network ") }.joined(separator: "\n")

        XCTAssertEqual(slow.status, 0, slow.stderr)
        // The loads behind the first two reads went to the origin at once; those reads, once
        // answered, were compared with the origin's fetches, checked by one more, and the tier skipped.
        XCTAssertTrue(slow.stderr.contains("no read has answered 50 ms after the start; loads go to the origin"), decisions)
        XCTAssertTrue(slow.stderr.contains("reads look slow, "), decisions)
        XCTAssertTrue(slow.stderr.contains("reads skip the tier: "), decisions)
        XCTAssertTrue(slow.stderr.contains("; slower than the origin 1 time, "), decisions)
        XCTAssertLessThanOrEqual(try proxy.stats().requests["GET", default: 0], 8, decisions)
        // Every read it answered found its object: the images fetched instead are not uploaded
        // again, those of the loads sent away before its first answer included.
        XCTAssertEqual(try proxy.stats().requests["PUT", default: 0], 0, decisions)
        XCTAssertLessThan(elapsed, .seconds(20), "400 reads of 200 ms, 2 at a time, would take 40 s: \(decisions)")
    }

    func testAFillWhoseReadsLookSlowSendsTheUploadsAFullBacklogTurnedAwayAtTheEnd() throws {
        let nginx = try startNginx()
        // 40 images of 480 KB (19 MB): the loads sent to the origin before the tier's first
        // answer outrun 4 uploaders whose PUTs take 30 ms, past the 4 MiB kept for that answer
        // and the 4 MiB backlog, while nothing yet says whether uploads keep pace.
        let names = (0..<40).map { "noise\($0).png" }
        try serveNoisePNGs(names, side: 400)
        let urls = names.map { url("/\($0)") }
        let proxy = try FaultProxy.start(upstream: nginx.davURL, faults: .init(delay: .milliseconds(400), putDelay: .milliseconds(30)))

        let filler = try worker("w", ["prefetch", "-v", "-j", "16", "--remote-cache", proxy.url(for: nginx.davURL).absoluteString, try writeList(urls)])

        XCTAssertEqual(filler.status, 0, filler.stderr)
        let decisions = lines(filler.stderr).filter { !$0.hasPrefix("imgfetch: network ") }.joined(separator: "\n")
        // No read answered for 400 ms, so the loads behind the first 16 went to the origin, and
        // PUTs kept pace (30 ms is not 50 ms over the origin's time): every image reached the
        // tier, those a full backlog turned away included (4 of 40 in a run here; with them
        // counted as not uploaded instead, this test failed in 5 runs of 5).
        XCTAssertTrue(filler.stderr.contains("no read has answered 50 ms after the start"), decisions)
        XCTAssertTrue(filler.stderr.contains("40 uploaded, 0 not uploaded"), decisions)
        XCTAssertEqual(nginx.storedObjects().count, 40, decisions)
    }

    func testAnUnreachableTierPausesBothDirectionsWithOneWarning() throws {
        let port = try LocalPort.free()
        let urls = distinctURLs(20)

        let result = try worker("w", ["prefetch", "-v", "--json", "--remote-cache", "http://127.0.0.1:\(port)/tier", try writeList(urls)])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try cacheTypes(result), ["network": 20])
        XCTAssertEqual(warnings(result).count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("reads paused: Could not connect"), result.stderr)
        XCTAssertTrue(result.stderr.contains("writes paused: Could not connect"), result.stderr)
        XCTAssertTrue(result.stderr.contains("0 uploaded, 20 not uploaded"), result.stderr)
    }
}
