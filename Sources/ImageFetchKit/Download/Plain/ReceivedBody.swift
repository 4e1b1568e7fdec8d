import FoundationEssentials
import Glibc
import Synchronization

/// A response body that `PlainHTTPFetch` receives straight into the memory its `Data` will own:
/// no buffer in between, so each byte is copied once, by the kernel.
///
/// The memory is mapped for the body alone, outside malloc: bodies allocated by malloc on the
/// plain client's threads spread over their arenas, and the resize batch's peak RSS at 10k URLs
/// rose from 94 to 154 MiB. And it is reused: when the `Data` goes, its block returns to
/// `Recycled` for the next body, as a fresh block costs a page fault for every 4 KiB the kernel
/// writes into it (in a batch of 100 images, the largest single part of the client's CPU time).
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

    /// The body as `Data`, which takes over its memory; the buffer keeps its count but no memory.
    func takeData() -> Data {
        guard let taken = base, count > 0 else { return Data() }
        let capacity = self.capacity
        base = nil
        return Data(bytesNoCopy: taken, count: count, deallocator: .custom { pointer, _ in
            Recycled.give(pointer, capacity: capacity)
        })
    }

    /// Moves the body to a larger block: only for a body without a declared length, or one
    /// declared past the 64 MiB set aside before it arrives.
    private func grow(to wanted: Int) {
        let (grown, newCapacity) = Recycled.take(atLeast: wanted)
        memcpy(grown, base!, count)
        Recycled.give(base!, capacity: capacity)
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
            let capacity = blockSize(for: wanted)
            let pointer = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let pointer, pointer != MAP_FAILED else { fatalError("out of memory for a \(capacity)-byte response body") }
            return (pointer, capacity)
        }

        static func blockSize(for wanted: Int) -> Int { max(1, (wanted + step - 1) / step) * step }

        static func give(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
            let address = UInt(bitPattern: pointer)
            let keptIt = kept.withLock { kept in
                guard kept.bytes + capacity <= keptLimit else { return false }
                kept.blocks.append((address, capacity))
                kept.bytes += capacity
                return true
            }
            if !keptIt { munmap(pointer, capacity) }
        }
    }
}

