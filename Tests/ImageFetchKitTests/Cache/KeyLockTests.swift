import Foundation
import Synchronization
import XCTest
@testable import ImageFetchKit

final class KeyLockTests: XCTestCase {
    private var cache: DiskCache!
    private var lockFile: String { cache.directory + "/keys.lock" }

    override func setUpWithError() throws {
        cache = try DiskCache(directory: try makeTemporaryDirectory(self) + "/cache")
    }

    func testSecondThreadWantingTheSameKeyWaitsForTheFirst() throws {
        let cache = try XCTUnwrap(cache)
        let order = Mutex<[String]>([])
        let secondDone = DispatchSemaphore(value: 0)
        try cache.withKeyLock(key("a")) {
            Thread {
                _ = try? cache.withKeyLock(key("a")) { order.withLock { $0.append("second") } }
                secondDone.signal()
            }.start()
            waitUntil("the second thread blocks on the key") { blockedLockWaiters(on: lockFile) == 1 }
            order.withLock { $0.append("first") }
        }
        secondDone.wait()
        XCTAssertEqual(order.withLock { $0 }, ["first", "second"])
    }

    func testDifferentKeysDoNotWaitForEachOther() throws {
        let cache = try XCTUnwrap(cache)
        let otherDone = DispatchSemaphore(value: 0)
        try cache.withKeyLock(key("a")) {
            Thread {
                _ = try? cache.withKeyLock(key("b")) {}
                otherDone.signal()
            }.start()
            // Still holding "a": the other key's holder must finish on its own.
            XCTAssertEqual(otherDone.wait(timeout: .now() + 30), .success)
        }
    }

    func testWaitingTasksDoNotBlockTheCooperativePool() async throws {
        let cache = try XCTUnwrap(cache)
        let lockFile = lockFile
        let release = AsyncStream<Void>.makeStream()
        let held = AsyncStream<Void>.makeStream()
        let counts = Counts()
        let holder = Task {
            try await cache.withKeyLock(key("a")) {
                held.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        // Every waiter below must find the key taken, or fewer than 16 would ever block.
        for await _ in held.stream { break }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await cache.withKeyLock(key("a")) {
                        let now = counts.inside.withLock { $0 += 1; return $0 }
                        counts.mostInside.withLock { $0 = max($0, now) }
                        await Task.yield()
                        counts.inside.withLock { $0 -= 1 }
                    }
                    counts.done.withLock { $0 += 1 }
                }
            }
            // With 16 waiters blocked and only a few pool threads, this task could not run if
            // the waiters were blocking pool threads.
            group.addTask {
                await Task.detached { waitUntil("16 tasks wait for the key") { blockedLockWaiters(on: lockFile) >= 16 } }.value
                release.continuation.yield()
            }
            try await group.waitForAll()
        }
        try await holder.value
        XCTAssertEqual(counts.done.withLock { $0 }, 16)
        XCTAssertEqual(counts.mostInside.withLock { $0 }, 1, "two tasks held the key at once")
    }

    private final class Counts: Sendable {
        let inside = Mutex(0), mostInside = Mutex(0), done = Mutex(0)
    }

    func testLockOfAKilledProcessIsReleased() throws {
        let directory = cache.directory
        let first = try CacheHammer(["fetch-once", directory, "k", "1000"])
        first.waitForLine { $0 == "producing" }  // holds the lock, waiting for a line
        first.kill()
        first.waitForExit()
        let second = try CacheHammer(["fetch-once", directory, "k", "1000"])
        second.waitForLine { $0 == "producing" }
        second.send("go")
        second.waitForLine { $0 == "produced" }
        XCTAssertEqual(second.waitForExit(), 0)
    }
}
