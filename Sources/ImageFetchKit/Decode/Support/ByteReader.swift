import FoundationEssentials

/// Bounds-checked reads at offsets counted from the first byte of `data`, whatever its
/// `startIndex`. A read past the end returns nil, which header parsers turn into `.truncated`.
struct ByteReader {
    let data: Data
    let count: Int
    private let base: Int

    init(_ data: Data) {
        self.data = data
        self.count = data.count
        self.base = data.startIndex
    }

    func uint8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return data[base + offset]
    }

    func uint16BE(at offset: Int) -> Int? {
        guard let a = uint8(at: offset), let b = uint8(at: offset + 1) else { return nil }
        return Int(a) << 8 | Int(b)
    }

    func uint16LE(at offset: Int) -> Int? {
        guard let a = uint8(at: offset), let b = uint8(at: offset + 1) else { return nil }
        return Int(b) << 8 | Int(a)
    }

    func uint24LE(at offset: Int) -> Int? {
        guard let low = uint16LE(at: offset), let high = uint8(at: offset + 2) else { return nil }
        return Int(high) << 16 | low
    }

    func uint32BE(at offset: Int) -> Int? {
        guard let high = uint16BE(at: offset), let low = uint16BE(at: offset + 2) else { return nil }
        return high << 16 | low
    }

    func uint32LE(at offset: Int) -> Int? {
        guard let low = uint16LE(at: offset), let high = uint16LE(at: offset + 2) else { return nil }
        return high << 16 | low
    }

    func matches(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + bytes.count <= count else { return false }
        return bytes.indices.allSatisfy { data[base + offset + $0] == bytes[$0] }
    }

    /// The bytes at `offset` as text; nil if they run past the end, or (unless `lossy`) are not ASCII.
    func ascii(at offset: Int, length: Int, lossy: Bool = false) -> String? {
        guard offset >= 0, length >= 0, offset + length <= count else { return nil }
        let slice = data[(base + offset)..<(base + offset + length)]
        if !lossy, slice.contains(where: { $0 >= 0x80 }) { return nil }
        return String(decoding: slice, as: UTF8.self)
    }
}
