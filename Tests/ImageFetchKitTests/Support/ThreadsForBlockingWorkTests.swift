import Foundation
import Synchronization
import XCTest
@testable import ImageFetchKit

final class ThreadsForBlockingWorkTests: XCTestCase {
    /// A job never waits behind one that blocks: with every thread busy, it gets a new one.
    func testAJobDoesNotWaitBehindABlockedOne() throws {
        let threads = ThreadsForBlockingWork(name: "test.blocking", idleSeconds: 1)
        let release = DispatchSemaphore(value: 0)
        let blockedStarted = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        threads.run {
            blockedStarted.signal()
            release.wait()
        }
        XCTAssertEqual(blockedStarted.wait(timeout: .now() + 5), .success)
        threads.run { secondDone.signal() }
        XCTAssertEqual(secondDone.wait(timeout: .now() + 5), .success, "the second job waited behind the first")
        release.signal()
    }

    /// A thread stays for the next job: jobs run one after another run on one thread.
    func testAnIdleThreadTakesTheNextJob() throws {
        let threads = ThreadsForBlockingWork(name: "test.blocking", idleSeconds: 5)
        let seen = Mutex<Set<UInt64>>([])
        for _ in 0..<5 {
            let done = DispatchSemaphore(value: 0)
            threads.run {
                let id = UInt64(pthread_self())
                seen.withLock { _ = $0.insert(id) }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
            // Lets the thread go back to waiting before the next job comes.
            usleep(20_000)
        }
        XCTAssertEqual(seen.withLock { $0.count }, 1)
    }

    /// Many jobs at once all run, each once.
    func testEveryJobRunsOnce() throws {
        let threads = ThreadsForBlockingWork(name: "test.blocking", idleSeconds: 1)
        let count = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<200 {
            group.enter()
            threads.run {
                count.withLock { $0 += 1 }
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(count.withLock { $0 }, 200)
    }
}
