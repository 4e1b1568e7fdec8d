import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// Concurrency limit, queue order, priority and connection reuse, asserted by the server.
final class DownloaderSchedulingTests: DownloadTestCase {
    func testNoMoreThanTheConcurrencyLimitRunAtOnce() async throws {
        for i in 0..<12 { try serveFile("\(i).jpg", bytes: 1000) }
        let downloader = makeDownloader()  // the default limit, 6
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<12 {
                let req = request("/\(i).jpg", ["hold": "go"])
                group.addTask { _ = try await downloader.load(req) }
            }
            try await server.waitForHeldRequests(6, to: "*")
            try server.release()
            try await group.waitForAll()
        }
        XCTAssertEqual(try server.stats().maxActive, 6)
        XCTAssertEqual(try server.stats().log.count, 12)
    }

    func testATransfersTimeIsItsOwnNotItsWaitInTheQueue() async throws {
        try serveFile("a.jpg", bytes: 1000)
        try serveFile("b.jpg", bytes: 1000)
        let downloader = makeDownloader(DownloaderConfiguration(maxConcurrentDownloads: 1))
        let (a, b) = (request("/a.jpg", ["delay_ms": "300"]), request("/b.jpg", ["delay_ms": "300"]))
        let start = ContinuousClock.now
        let first = Task { try await downloader.load(a) }
        try await Task.sleep(for: .milliseconds(50))
        let second = try await downloader.load(b)
        let waited = ContinuousClock.now - start
        _ = try await first.value
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(550), "the second waited for the first")
        XCTAssertGreaterThanOrEqual(second.transferTime, .milliseconds(280))
        XCTAssertLessThan(second.transferTime, .milliseconds(500), "its 300 ms on the network, not its wait behind the first")
    }

    func testQueuedTransfersStartFirstInFirstOutByDefault() async throws {
        let order = try await startOrder(DownloaderConfiguration(maxConcurrentDownloads: 1), [("/a", .normal), ("/b", .normal), ("/c", .normal)])
        XCTAssertEqual(order, ["/block", "/a", "/b", "/c"])
    }

    func testLIFOStartsTheNewestQueuedTransferFirst() async throws {
        let order = try await startOrder(DownloaderConfiguration(maxConcurrentDownloads: 1, order: .lifo), [("/a", .normal), ("/b", .normal), ("/c", .normal)])
        XCTAssertEqual(order, ["/block", "/c", "/b", "/a"])
    }

    func testHigherPriorityStartsBeforeEarlierLowerPriority() async throws {
        let order = try await startOrder(DownloaderConfiguration(maxConcurrentDownloads: 1), [("/a", .low), ("/b", .normal), ("/c", .high)])
        XCTAssertEqual(order, ["/block", "/c", "/b", "/a"])
    }

    func testJoiningWithHigherPriorityMovesAQueuedTransferAhead() async throws {
        for name in ["/block", "/a", "/b"] { try serveFile(name, bytes: 10) }
        let downloader = makeDownloader(DownloaderConfiguration(maxConcurrentDownloads: 1))
        let blocker = request("/block", ["hold": "go"])
        let blocked = Task { try await downloader.load(blocker) }
        try await server.waitForHeldRequests(1, to: "/block")
        let a = request("/a"), b = request("/b")
        var urgentB = b
        urgentB.priority = .high
        let first = Task { try await downloader.load(a) }
        await events.wait(for: 2) { if case .queued = $0 { true } else { false } }
        let second = Task { try await downloader.load(b) }
        await events.wait(for: 3) { if case .queued = $0 { true } else { false } }
        let urgent = Task { try await downloader.load(urgentB) }
        await events.wait(for: 1) { if case .joined = $0 { true } else { false } }
        try server.release("go")
        for task in [blocked, first, second, urgent] { _ = try await task.value }
        XCTAssertEqual(try server.stats().log.map { String($0.split(separator: "?")[0]) }, ["/block", "/b", "/a"])
    }

    func testABatchOfAThousandToOneHostReusesConnections() async throws {
        let downloader = makeDownloader(DownloaderConfiguration(maxConcurrentDownloads: 16))
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for i in 0..<1000 {
                let req = request("/_bytes/\(5000 + i * 25)")  // generated bodies, 5 to 30 KB
                group.addTask { (i, try await downloader.load(req).body.count) }
            }
            for try await (i, count) in group { XCTAssertEqual(count, 5000 + i * 25) }
        }
        let stats = try server.stats()
        XCTAssertEqual(stats.log.count, 1000)
        XCTAssertLessThanOrEqual(stats.maxActive, 16)
        XCTAssertLessThanOrEqual(stats.connections, 32, "connections are reused, not opened per request")
    }

    /// Blocks a one-slot downloader with a held request, queues `paths` one after the other,
    /// releases, and returns the paths in the order the server saw them.
    private func startOrder(_ configuration: DownloaderConfiguration, _ paths: [(String, DownloadPriority)]) async throws -> [String] {
        for name in ["/block"] + paths.map(\.0) { try serveFile(name, bytes: 10) }
        let downloader = makeDownloader(configuration)
        let blocker = request("/block", ["hold": "go"])
        var tasks = [Task { try await downloader.load(blocker) }]
        try await server.waitForHeldRequests(1, to: "/block")
        for (index, (path, priority)) in paths.enumerated() {
            var queued = request(path)
            queued.priority = priority
            tasks.append(Task { try await downloader.load(queued) })
            await events.wait(for: index + 2) { if case .queued = $0 { true } else { false } }
        }
        try server.release("go")
        for task in tasks { _ = try await task.value }
        return try server.stats().log.map { String($0.split(separator: "?")[0]) }
    }
}
