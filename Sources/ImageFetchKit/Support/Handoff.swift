import Dispatch
import Synchronization

/// One value handed from one thread to another that waits for it, once.
final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let given = DispatchSemaphore(value: 0)

    /// Hands over `value` (nil: nothing to hand over) and wakes the waiting thread. Call once.
    func give(_ value: Value?) {
        self.value.withLock { $0 = value }
        given.signal()
    }

    /// Blocks the calling thread until `give` is called, and returns what it gave.
    func wait() -> Value? {
        given.wait()
        return value.withLock { $0 }
    }
}
