import XCTest
@testable import ImageFetchKit

final class TransferQueueTests: XCTestCase {
    func testFIFOServesHigherPriorityFirstThenArrivalOrder() {
        var queue = TransferQueue<String>(configuration: .init(maxConcurrentDownloads: 1))
        queue.enqueue("low", priority: .low)
        queue.enqueue("a", priority: .normal)
        queue.enqueue("b", priority: .normal)
        queue.enqueue("urgent", priority: .high)
        XCTAssertEqual(drain(&queue), ["urgent", "a", "b", "low"])
        XCTAssertTrue(queue.isIdle)
    }

    func testLIFOServesNewestFirstWithinAPriority() {
        var queue = TransferQueue<String>(configuration: .init(order: .lifo))
        for name in ["a", "b", "c"] { queue.enqueue(name, priority: .normal) }
        XCTAssertEqual(drain(&queue), ["c", "b", "a"])
    }

    func testUnwantedEntriesAreSkipped() {
        var queue = TransferQueue<String>(configuration: .init())
        for name in ["a", "cancelled", "b"] { queue.enqueue(name, priority: .normal) }
        XCTAssertEqual(queue.next { $0 != "cancelled" }, "a")
        XCTAssertEqual(queue.next { $0 != "cancelled" }, "b")
        XCTAssertNil(queue.next { $0 != "cancelled" })
    }

    func testSlotsFollowStartsAndStops() {
        var queue = TransferQueue<String>(configuration: .init(maxConcurrentDownloads: 2))
        queue.didStart()
        queue.didStart()
        XCTAssertFalse(queue.hasFreeSlot)
        queue.didStop()
        XCTAssertTrue(queue.hasFreeSlot)
    }

    func testALongFIFOStaysInOrderAcrossCompaction() {
        var queue = TransferQueue<Int>(configuration: .init())
        for i in 0..<5000 { queue.enqueue(i, priority: .normal) }
        var taken: [Int] = []
        for _ in 0..<3000 { taken.append(queue.next { _ in true }!) }
        for i in 5000..<5100 { queue.enqueue(i, priority: .normal) }
        while let next = queue.next(where: { _ in true }) { taken.append(next) }
        XCTAssertEqual(taken, Array(0..<5100))
    }

    private func drain(_ queue: inout TransferQueue<String>) -> [String] {
        var out: [String] = []
        while let next = queue.next(where: { _ in true }) { out.append(next) }
        return out
    }
}
