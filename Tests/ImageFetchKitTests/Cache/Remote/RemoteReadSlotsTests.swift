@testable import ImageFetchKit
import Synchronization
import XCTest

/// The tier's read slots: never more reads at once than slots, every waiting read runs, a
/// cancelled wait gives up at once without reading or taking a slot, and so does a diverted one.
final class RemoteReadSlotsTests: XCTestCase {
    private final class Counts: Sendable {
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let divert = Atomic<Bool>(false)
        let gaveUp = Atomic<Int>(0)
    }

    /// A read holding `slots`' one slot until `released` yields, then answering `answer`;
    /// returns once it holds the slot.
    private func holdTheOnlySlot(
        of slots: RemoteReadSlots, _ counts: Counts, answering answer: Int
    ) async -> (holder: Task<Int?, Never>, released: AsyncStream<Void>.Continuation) {
        let (release, released) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            await slots.withSlot { () async -> Int? in
                counts.running.add(1, ordering: .sequentiallyConsistent)
                for await _ in release { break }
                return answer
            }
        }
        while counts.running.load(ordering: .sequentiallyConsistent) == 0 { await Task.yield() }
        return (holder, released)
    }

    func testNoMoreReadsRunAtOnceThanSlotsAndEveryWaitingOneRuns() async {
        let slots = RemoteReadSlots(count: 3)
        let counts = Counts()
        await withTaskGroup(of: Int?.self) { group in
            for number in 0..<20 {
                group.addTask {
                    await slots.withSlot {
                        let now = counts.running.add(1, ordering: .sequentiallyConsistent).newValue
                        counts.most.max(now, ordering: .sequentiallyConsistent)
                        try? await Task.sleep(for: .milliseconds(5))
                        counts.running.subtract(1, ordering: .sequentiallyConsistent)
                        counts.done.add(1, ordering: .sequentiallyConsistent)
                        return number
                    }
                }
            }
            var answered = Set<Int>()
            for await number in group { if let number { answered.insert(number) } }
            XCTAssertEqual(answered, Set(0..<20), "each read's own answer comes back")
        }
        XCTAssertEqual(counts.done.load(ordering: .sequentiallyConsistent), 20)
        XCTAssertEqual(counts.most.load(ordering: .sequentiallyConsistent), 3, "20 reads at once, 3 slots: all three used, never a fourth")
    }

    func testACancelledWaitReadsNothingAndLeavesTheSlotsAsTheyWere() async {
        let slots = RemoteReadSlots(count: 1)
        let counts = Counts()
        let (holder, released) = await holdTheOnlySlot(of: slots, counts, answering: 1)
        let gaveUp = Atomic<Bool>(false)
        let waiter = Task {
            let answer = await slots.withSlot { () async -> Int? in
                counts.done.add(1, ordering: .sequentiallyConsistent)
                return 2
            }
            gaveUp.store(true, ordering: .sequentiallyConsistent)
            return answer
        }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        for _ in 0..<200 where !gaveUp.load(ordering: .sequentiallyConsistent) { try? await Task.sleep(for: .milliseconds(5)) }
        XCTAssertTrue(gaveUp.load(ordering: .sequentiallyConsistent), "the cancelled wait gives up while the slot is still held")

        released.yield()
        let held = await holder.value
        let cancelled = await waiter.value
        XCTAssertEqual(held, 1)
        XCTAssertNil(cancelled)
        XCTAssertEqual(counts.done.load(ordering: .sequentiallyConsistent), 0, "the cancelled wait never reads")
        let next = await slots.withSlot { () async -> Int? in 3 }
        XCTAssertEqual(next, 3, "the slot the holder gave back is free for the next read")
    }

    func testDivertedWaitsGiveUpWithoutReadingWhileTheOthersWaitOn() async {
        let slots = RemoteReadSlots(count: 1)
        let counts = Counts()
        let (holder, released) = await holdTheOnlySlot(of: slots, counts, answering: 0)
        let diverted = (1...3).map { number in
            Task {
                let answer = await slots.withSlot(unless: { counts.divert.load(ordering: .sequentiallyConsistent) }) { () async -> Int? in
                    counts.done.add(1, ordering: .sequentiallyConsistent)
                    return number
                }
                counts.gaveUp.add(1, ordering: .sequentiallyConsistent)
                return answer
            }
        }
        let patient = Task {
            await slots.withSlot { () async -> Int? in
                counts.done.add(1, ordering: .sequentiallyConsistent)
                return 4
            }
        }
        try? await Task.sleep(for: .milliseconds(20))
        XCTAssertEqual(counts.gaveUp.load(ordering: .sequentiallyConsistent), 0, "nothing diverts them yet")

        counts.divert.store(true, ordering: .sequentiallyConsistent)
        slots.divertWaiters()
        for _ in 0..<200 where counts.gaveUp.load(ordering: .sequentiallyConsistent) < 3 { try? await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(counts.gaveUp.load(ordering: .sequentiallyConsistent), 3, "the diverted waits end while the slot is still held")

        released.yield()
        for task in diverted {
            let answer = await task.value
            XCTAssertNil(answer, "a diverted wait reads nothing")
        }
        let held = await holder.value
        let waited = await patient.value
        XCTAssertEqual(held, 0)
        XCTAssertEqual(waited, 4, "a wait its caller does not divert goes on and gets the slot")
        XCTAssertEqual(counts.done.load(ordering: .sequentiallyConsistent), 1, "only that one read")
        let diverting = await slots.withSlot(unless: { true }) { () async -> Int? in 5 }
        XCTAssertNil(diverting, "asked before waiting too")
    }
}
