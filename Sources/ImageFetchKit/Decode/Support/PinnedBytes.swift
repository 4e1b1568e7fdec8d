import FoundationEssentials

/// A copy of a file's bytes at an address that stays put, for the C decoders that read from their
/// input for as long as they live (the animation readers): `Data` gives its address only inside a
/// closure. Freed with its owner, including an owner whose init throws part-way.
final class PinnedBytes {
    /// The first byte; valid while this object lives.
    let base: UnsafeMutablePointer<UInt8>
    let count: Int
    private let storage: UnsafeMutableRawBufferPointer

    init(_ data: Data) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        base = storage.bindMemory(to: UInt8.self).baseAddress!
        count = data.count
        data.copyBytes(to: base, count: data.count)
    }

    deinit {
        storage.deallocate()
    }
}
