import TestSupport

/// Self-checking test payloads: "HAMR", the total length (UInt32, little-endian), an FNV-1a hash
/// of the body (UInt64), then pseudo-random body bytes. Kept in step with the copy in the tests.
enum Payload {
    static func make(seed: UInt64, size: Int) -> [UInt8] {
        var random = SplitMix(seed: seed)
        let bodyCount = max(0, size - 16)
        var body = [UInt8](repeating: 0, count: bodyCount)
        for index in body.indices { body[index] = UInt8(truncatingIfNeeded: random.next()) }
        var bytes: [UInt8] = Array("HAMR".utf8)
        bytes += withUnsafeBytes(of: UInt32(bodyCount + 16).littleEndian, Array.init)
        bytes += withUnsafeBytes(of: fnv1a(body).littleEndian, Array.init)
        return bytes + body
    }

    static func isWhole(_ data: some Collection<UInt8>) -> Bool {
        let bytes = Array(data)
        guard bytes.count >= 16, bytes[0..<4].elementsEqual("HAMR".utf8) else { return false }
        let length = bytes[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let hash = bytes[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(length) == bytes.count && hash == fnv1a(bytes[16...])
    }

    static func fnv1a(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
