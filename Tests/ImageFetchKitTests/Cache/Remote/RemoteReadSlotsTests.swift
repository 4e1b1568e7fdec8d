@testable import ImageFetchKit
import Synchronization
import XCTest

/// The tier's read slots: never more reads at once than slots, and every waiting read runs.
final class RemoteReadSlotsTests: XCTestCase {
    private final class Counts: Sendable {
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let done = Atomic<Int>(0)
    }

    func testNoMoreReadsRunAtOnceThanSlotsAndEveryWaitingOneRuns() async {
        let slots = RemoteReadSlots(count: 3)
        let counts = Counts()
        await withTaskGroup(of: Int.self) { group in
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
            for await number in group { answered.insert(number) }
            XCTAssertEqual(answered, Set(0..<20), "each read's own answer comes back")
        }
        XCTAssertEqual(counts.done.load(ordering: .sequentiallyConsistent), 20)
        XCTAssertEqual(counts.most.load(ordering: .sequentiallyConsistent), 3, "20 reads at once, 3 slots: all three used, never a fourth")
    }
}
