import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImageFetchKit

/// Concurrent requests for one URL share one transfer, asserted by the server's request count.
final class DownloaderCoalescingTests: DownloadTestCase {
    private func isJoin(_ event: DownloadEvent) -> Bool { if case .joined = event { true } else { false } }

    func testHundredConcurrentRequestsForOneURLMakeOneRequest() async throws {
        let data = try serveFile("a.jpg", bytes: 30_000)
        let downloader = makeDownloader()
        let held = request("/a.jpg", ["hold": "go"])
        let tasks = (0..<100).map { _ in Task { try await downloader.load(held) } }
        await events.wait(for: 99) { if case .joined = $0 { true } else { false } }
        try server.release("go")
        for task in tasks {
            let body = try await task.value.body
            XCTAssertEqual(body, data)
        }
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    func testEachRequesterGetsItsOwnProgress() async throws {
        try serveFile("a.jpg", bytes: 100_000)
        let downloader = makeDownloader()
        let held = request("/a.jpg", ["hold": "go", "drip": "1", "chunk": "20000"])
        let first = Mutex<[Int64]>([]), second = Mutex<[Int64]>([])
        let one = Task { try await downloader.load(held) { p in first.withLock { $0.append(p.received) } } }
        await events.wait(for: 1) { if case .queued = $0 { true } else { false } }
        let two = Task { try await downloader.load(held) { p in second.withLock { $0.append(p.received) } } }
        await events.wait(for: 1) { if case .joined = $0 { true } else { false } }
        try server.release("go")
        _ = try await (one.value, two.value)
        XCTAssertEqual(first.withLock { $0.last }, 100_000)
        XCTAssertEqual(second.withLock { $0.last }, 100_000)
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    func testCancellingNinetyNineRequestersLetsTheLastOneComplete() async throws {
        let data = try serveFile("a.jpg", bytes: 30_000)
        let downloader = makeDownloader()
        let held = request("/a.jpg", ["hold": "go"])
        let tasks = (0..<100).map { _ in Task { try await downloader.load(held) } }
        await events.wait(for: 99) { if case .joined = $0 { true } else { false } }
        try await server.waitForHeldRequests(1, to: "/a.jpg")
        for task in tasks.dropLast() { task.cancel() }
        for task in tasks.dropLast() { try await assertCancelled(task, "a cancelled requester got a response") }
        try server.release("go")
        let body = try await tasks.last!.value.body
        XCTAssertEqual(body, data)
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
        XCTAssertFalse(events.all.contains(.abandoned(held.url)))
    }

    func testCancellingEveryRequesterStopsTheTransfer() async throws {
        try serveFile("a.jpg", bytes: 200_000)
        let downloader = makeDownloader()
        let stalling = request("/a.jpg", ["stall_after": "1000"])
        let tasks = (0..<10).map { _ in Task { try await downloader.load(stalling) } }
        await events.wait(for: 9) { if case .joined = $0 { true } else { false } }
        try await server.waitForRequests(1, to: "/a.jpg")
        for task in tasks { task.cancel() }
        for task in tasks { try await assertCancelled(task, "a cancelled requester got a response") }
        await events.wait(for: 1) { $0 == .abandoned(stalling.url) }
        // The server sees the client hang up in the middle of the body.
        try await server.waitForAbandonedResponses(1, to: "/a.jpg")
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 1)
    }

    func testCancelledTaskThatNeverStartedFailsWithCancelled() async throws {
        try serveFile("a.jpg", bytes: 1000)
        let downloader = makeDownloader()
        let req = request("/a.jpg")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await downloader.load(req)
        }
        try await assertCancelled(task, "a task cancelled before loading got a response")
    }

    func testRequestsWithDifferentHeadersAreNotCoalesced() async throws {
        try serveFile("a.jpg", bytes: 1000)
        let downloader = makeDownloader()
        var one = request("/a.jpg", ["hold": "go"]), two = one
        one.headers = ["X-Variant": "1"]
        two.headers = ["X-Variant": "2"]
        async let first = downloader.load(one)
        async let second = downloader.load(two)
        try await server.waitForHeldRequests(2, to: "/a.jpg")
        try server.release("go")
        _ = try await (first, second)
        XCTAssertEqual(try server.requestCount(for: "/a.jpg"), 2)
    }
}
