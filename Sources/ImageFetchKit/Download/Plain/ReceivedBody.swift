import FoundationEssentials
import Glibc
import Synchronization

/// A response body that `PlainHTTPFetch` receives straight into the memory its `Data` will own:
/// no buffer in between, so each byte is copied once, by the kernel.
///
/// The memory is reused: when the `Data` goes, its block returns to `Recycled` for the next body.
/// A fresh block costs a page fault for every 4 KiB the kernel writes into it; in a batch of 100
/// images those faults were the largest single part of the plain client's CPU time.
final class ReceivedBody {
    private var base: UnsafeMutableRawPointer?
    private var capacity: Int
    private(set) var count = 0

    /// `capacity` is a first guess; the body grows as bytes come.
    init(capacity: Int) {
        (base, self.capacity) = Recycled.take(atLeast: max(capacity, 1))
    }

    deinit {
        if let base { Recycled.give(base, capacity: capacity) }
    }

    /// Room for at most `limit` more bytes, at least one, at the end of the body.
    func room(atMost limit: Int) -> UnsafeMutableRawBufferPointer {
        if count == capacity { grow(to: capacity * 2) }
        return UnsafeMutableRawBufferPointer(start: base! + count, count: min(capacity - count, max(limit, 1)))
    }

    /// Counts `received` bytes that were written into `room`.
    func didReceive(_ received: Int) { count += received }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: max(capacity * 2, count + bytes.count)) }
        memcpy(base! + count, bytes.baseAddress!, bytes.count)
        count += bytes.count
    }

    /// The body as `Data`, which takes over its memory; this buffer is empty after.
    func takeData() -> Data {
        guard let taken = base, count > 0 else { return Data() }
        let capacity = self.capacity
        base = nil
        return Data(bytesNoCopy: taken, count: count, deallocator: .custom { pointer, _ in
            Recycled.give(pointer, capacity: capacity)
        })
    }

    private func grow(to newCapacity: Int) {
        guard let grown = realloc(base, newCapacity) else { fatalError("out of memory for a \(newCapacity)-byte response body") }
        base = grown
        capacity = newCapacity
    }

    /// Blocks of freed bodies, kept for the next ones up to `keptLimit` bytes in all.
    enum Recycled {
        static let keptLimit = 8 << 20
        /// Blocks are sized in these steps, so that a kept one fits most later bodies of a batch.
        static let step = 64 << 10

        /// Kept as addresses, which are Sendable; a block belongs to no one while it is here.
        private static let kept = Mutex<(blocks: [(address: UInt, capacity: Int)], bytes: Int)>(([], 0))

        static func take(atLeast wanted: Int) -> (UnsafeMutableRawPointer, Int) {
            let found: (address: UInt, capacity: Int)? = kept.withLock { kept in
                // The smallest block that fits; a batch keeps a few dozen at most.
                guard let index = kept.blocks.indices.filter({ kept.blocks[$0].capacity >= wanted })
                    .min(by: { kept.blocks[$0].capacity < kept.blocks[$1].capacity }) else { return nil }
                kept.bytes -= kept.blocks[index].capacity
                return kept.blocks.remove(at: index)
            }
            if let found { return (UnsafeMutableRawPointer(bitPattern: found.address)!, found.capacity) }
            let capacity = (wanted + step - 1) / step * step
            guard let pointer = malloc(capacity) else { fatalError("out of memory for a \(capacity)-byte response body") }
            return (pointer, capacity)
        }

        static func give(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
            let address = UInt(bitPattern: pointer)
            let keptIt = kept.withLock { kept in
                guard kept.bytes + capacity <= keptLimit else { return false }
                kept.blocks.append((address, capacity))
                kept.bytes += capacity
                return true
            }
            if !keptIt { free(pointer) }
        }
    }
}

