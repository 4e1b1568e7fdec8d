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

    func testABatchToOneHostReusesConnections() async throws {
        for i in 0..<200 { try serveFile("\(i).jpg", bytes: 5000) }
        let downloader = makeDownloader(DownloaderConfiguration(maxConcurrentDownloads: 8))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<200 {
                let req = request("/\(i).jpg")
                group.addTask { try await downloader.load(req).body.count }
            }
            for try await count in group { XCTAssertEqual(count, 5000) }
        }
        let stats = try server.stats()
        XCTAssertEqual(stats.log.count, 200)
        XCTAssertLessThanOrEqual(stats.connections, 16, "connections are reused, not opened per request")
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
