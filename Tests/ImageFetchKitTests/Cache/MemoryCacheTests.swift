import Foundation
import XCTest
@testable import ImageFetchKit

final class MemoryCacheTests: XCTestCase {
    func testStoredValueIsReturnedUntilRemoved() {
        let cache = MemoryCache<String, Data>(costLimit: 100)
        cache.insert(Data([1, 2, 3]), for: "a", cost: 3)
        XCTAssertEqual(cache.value(for: "a"), Data([1, 2, 3]))
        cache.removeValue(for: "a")
        XCTAssertNil(cache.value(for: "a"))
        XCTAssertEqual(cache.totalCost, 0)
    }

    func testGoingOverTheLimitEvictsTheLeastRecentlyUsed() {
        let cache = MemoryCache<String, Int>(costLimit: 30)
        cache.insert(1, for: "a", cost: 10)
        cache.insert(2, for: "b", cost: 10)
        cache.insert(3, for: "c", cost: 10)
        XCTAssertEqual(cache.value(for: "a"), 1)  // "a" is now the most recent; "b" the oldest
        cache.insert(4, for: "d", cost: 10)
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertEqual(cache.value(for: "a"), 1)
        XCTAssertEqual(cache.value(for: "c"), 3)
        XCTAssertEqual(cache.value(for: "d"), 4)
        XCTAssertEqual(cache.totalCost, 30)
    }

    func testReplacingAValueReplacesItsCost() {
        let cache = MemoryCache<String, Int>(costLimit: 100)
        cache.insert(1, for: "a", cost: 60)
        cache.insert(2, for: "a", cost: 5)
        XCTAssertEqual(cache.totalCost, 5)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.value(for: "a"), 2)
    }

    func testValueCostingMoreThanTheWholeLimitIsNotKept() {
        let cache = MemoryCache<String, Int>(costLimit: 10)
        cache.insert(1, for: "small", cost: 5)
        cache.insert(2, for: "huge", cost: 11)
        XCTAssertNil(cache.value(for: "huge"))
        XCTAssertEqual(cache.value(for: "small"), 1)
    }

    func testOneLargeValueEvictsAsManyOldOnesAsItNeeds() {
        let cache = MemoryCache<Int, Int>(costLimit: 100)
        for number in 0..<10 { cache.insert(number, for: number, cost: 10) }
        cache.insert(99, for: 99, cost: 35)
        XCTAssertEqual((0..<4).compactMap { cache.value(for: $0) }, [])
        XCTAssertEqual((4..<10).compactMap { cache.value(for: $0) }, Array(4..<10))
        XCTAssertEqual(cache.totalCost, 95)
    }

    func testSlotsOfEvictedValuesAreReusedWithoutMixingUpKeys() {
        let cache = MemoryCache<Int, Int>(costLimit: 50)
        for number in 0..<1000 { cache.insert(number * 2, for: number, cost: 10) }
        XCTAssertEqual(cache.count, 5)
        for number in 995..<1000 { XCTAssertEqual(cache.value(for: number), number * 2) }
    }

    func testConcurrentUseFromManyThreadsKeepsTheLimitAndTheCount() {
        let cache = MemoryCache<Int, Int>(costLimit: 1000)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<5000 {
                let key = (worker * 7919 + round) % 300
                if round % 3 == 0 { cache.removeValue(for: key) } else { cache.insert(key, for: key, cost: 1 + key % 13) }
                if let value = cache.value(for: key) { XCTAssertEqual(value, key) }
            }
        }
        XCTAssertLessThanOrEqual(cache.totalCost, 1000)
        let held = (0..<300).filter { cache.value(for: $0) != nil }
        XCTAssertEqual(held.count, cache.count)
        XCTAssertEqual(held.reduce(0) { $0 + 1 + $1 % 13 }, cache.totalCost)
    }
}
