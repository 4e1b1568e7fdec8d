/// A zlib stream holding `bytes` in stored (uncompressed) blocks of at most 65535 bytes, with its
/// Adler-32: streams built in the tests, so each knows exactly what it inflates to.
func storedZlibStream(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let count = min(65535, bytes.count - offset)
        let final: UInt8 = offset + count == bytes.count ? 1 : 0
        out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
        out += bytes[offset..<(offset + count)]
        offset += count
    } while offset < bytes.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
    let adler = b << 16 | a
    return out + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> UInt32($0)) }
}
