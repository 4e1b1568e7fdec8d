import Foundation
@testable import ImageFetchKit
import Synchronization
import XCTest

/// The remote tier's upload backlog: in order, never more waiting than its budget (one image
/// over the budget alone), puts that wait for room, and a close that leaves nothing hanging.
final class RemoteUploadBacklogTests: XCTestCase {
    /// A number the test's tasks share.
    private final class Shared: Sendable {
        let value = Atomic<Int>(0)
    }

    func testUploadsWithinTheBudgetAreTakenInOrder() async {
        let backlog = RemoteUploadBacklog(byteBudget: 1000)
        for number in 0..<4 { await backlog.put(upload(number, bytes: 250)) }
        XCTAssertEqual(backlog.waitingBytes, 1000)
        for number in 0..<4 {
            let taken = await backlog.take()
            XCTAssertEqual(taken?.key, CacheKey("https://img.example/\(number).jpg"))
        }
        XCTAssertEqual(backlog.waitingBytes, 0)
    }

    func testAPutPastTheBudgetWaitsUntilAnUploadIsTaken() async throws {
        let backlog = RemoteUploadBacklog(byteBudget: 1000)
        for number in 0..<4 { await backlog.put(upload(number, bytes: 250)) }
        let done = Shared()
        let blocked = Task {
            await backlog.put(upload(4, bytes: 250))
            done.value.store(1, ordering: .sequentiallyConsistent)
        }
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(done.value.load(ordering: .sequentiallyConsistent), 0, "a put past the budget returned at once")
        XCTAssertEqual(backlog.waitingBytes, 1000)
        let first = await backlog.take()
        XCTAssertEqual(first?.key, CacheKey("https://img.example/0.jpg"))
        await blocked.value
        XCTAssertEqual(done.value.load(ordering: .sequentiallyConsistent), 1)
        XCTAssertEqual(backlog.waitingBytes, 1000)
        for number in 1...4 {
            let taken = await backlog.take()
            XCTAssertEqual(taken?.key, CacheKey("https://img.example/\(number).jpg"))
        }
    }

    func testManyProducersNeverHoldMoreThanTheBudget() async {
        let backlog = RemoteUploadBacklog(byteBudget: 10_000)
        let most = Shared()
        let consumer = Task {
            var taken = 0
            while await backlog.take() != nil {
                taken += 1
                await Task.yield()
            }
            return taken
        }
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<8 {
                group.addTask {
                    for number in 0..<100 {
                        await backlog.put(upload(producer * 100 + number, bytes: 700 + number))
                        let waiting = backlog.waitingBytes
                        var seen = most.value.load(ordering: .relaxed)
                        while waiting > seen {
                            let (exchanged, original) = most.value.compareExchange(expected: seen, desired: waiting, ordering: .relaxed)
                            if exchanged { break }
                            seen = original
                        }
                    }
                }
            }
        }
        backlog.close()
        let taken = await consumer.value
        XCTAssertEqual(taken, 800)
        XCTAssertGreaterThan(most.value.load(ordering: .relaxed), 0)
        XCTAssertLessThanOrEqual(most.value.load(ordering: .relaxed), 10_000)
    }

    func testAnImageLargerThanTheBudgetIsAdmittedAlone() async {
        let backlog = RemoteUploadBacklog(byteBudget: 100)
        await backlog.put(upload(0, bytes: 5000))
        XCTAssertEqual(backlog.waitingBytes, 5000)
        let taken = await backlog.take()
        XCTAssertEqual(taken?.image.count, 5000)
    }

    func testAdmittedUploadsGoPastTheBudgetAndHoldLaterOffersUntilItIsBackWithin() async {
        let backlog = RemoteUploadBacklog(byteBudget: 1000)
        let idle = Task { await backlog.take() }
        // Time for the uploader to find the backlog empty and wait: admitted uploads must wake it.
        try? await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(backlog.admit((0..<6).map { upload($0, bytes: 250) }), 6)
        let handed = await idle.value
        XCTAssertEqual(handed?.key, CacheKey("https://img.example/0.jpg"), "the idle uploader gets the first")
        XCTAssertEqual(backlog.waitingBytes, 1250, "the other five wait, past the budget of 1000")
        XCTAssertFalse(backlog.offer(upload(6, bytes: 10)), "an offer to a backlog past its budget fails")
        for number in 1...2 {
            let taken = await backlog.take()
            XCTAssertEqual(taken?.key, CacheKey("https://img.example/\(number).jpg"))
        }
        XCTAssertTrue(backlog.offer(upload(7, bytes: 250)), "back within the budget: offers are taken again")
        backlog.close()
        XCTAssertEqual(backlog.admit([upload(8, bytes: 10)]), 0, "nothing is taken once closed")
    }

    func testCloseEndsIdleTakersKeepsWaitingUploadsAndDropsLaterPuts() async throws {
        let backlog = RemoteUploadBacklog(byteBudget: 1000)
        let idle = Task { await backlog.take() }
        try await Task.sleep(for: .milliseconds(100))
        backlog.close()
        let nothing = await idle.value
        XCTAssertNil(nothing)

        let other = RemoteUploadBacklog(byteBudget: 300)
        await other.put(upload(1, bytes: 250))
        let blocked = Task { await other.put(upload(2, bytes: 250)) }
        try await Task.sleep(for: .milliseconds(100))
        other.close()
        await blocked.value  // a put blocked at the close is admitted, not left hanging
        await other.put(upload(3, bytes: 10))
        let first = await other.take(), second = await other.take(), end = await other.take()
        XCTAssertEqual(first?.key, CacheKey("https://img.example/1.jpg"))
        XCTAssertEqual(second?.key, CacheKey("https://img.example/2.jpg"))
        XCTAssertNil(end, "a put after the close was kept")
    }
}

/// Upload `number`: `bytes` bytes for https://img.example/NUMBER.jpg.
private func upload(_ number: Int, bytes: Int) -> RemoteUploadBacklog.Upload {
    (Data(repeating: UInt8(number % 256), count: bytes), CacheKey("https://img.example/\(number).jpg"))
}
