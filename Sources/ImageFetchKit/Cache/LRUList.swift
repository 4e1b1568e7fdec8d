/// A doubly linked recency list over an array of slots (indices, not references, so it is cheap
/// and has no retain traffic), with a dictionary from key to slot: every operation is O(1).
/// Not thread-safe; `MemoryCache` owns it behind its mutex.
struct LRUList<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value?
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?
    private(set) var totalCost = 0

    var count: Int { index.count }

    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return slots[slot].value
    }

    mutating func insertAsMostRecent(_ value: Value, for key: Key, cost: Int) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(key: key, value: value, cost: cost)
        } else {
            slot = slots.count
            slots.append(Slot(key: key, value: value, cost: cost))
        }
        index[key] = slot
        totalCost += cost
        linkAsNewest(slot)
    }

    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        return release(slot)
    }

    mutating func removeLeastRecent() -> Value? {
        guard let slot = oldest else { return nil }
        index.removeValue(forKey: slots[slot].key)
        return release(slot)
    }

    private mutating func release(_ slot: Int) -> Value? {
        unlink(slot)
        totalCost -= slots[slot].cost
        let value = slots[slot].value
        slots[slot].value = nil
        slots[slot].cost = 0
        freeSlots.append(slot)
        return value
    }

    private mutating func linkAsNewest(_ slot: Int) {
        slots[slot].older = newest
        slots[slot].newer = nil
        if let newest { slots[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if let newer { slots[newer].older = older } else { newest = older }
        if let older { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = nil
        slots[slot].older = nil
    }
}
