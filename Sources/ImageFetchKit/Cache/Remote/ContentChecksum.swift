import CCRC32C
import FoundationEssentials

/// The CRC-32C that a remote object carries to show it arrived as it was stored: damage
/// detection only (see `RemoteEnvelope`), at the speed of the CPU's crc32 instruction where it
/// has one (see Sources/CCRC32C), the same value either way.
enum ContentChecksum {
    /// CRC-32C of `bytes`.
    static func crc32c(_ bytes: Data) -> UInt32 {
        bytes.withUnsafeBytes { imgfetch_crc32c(0, $0.baseAddress, $0.count) }
    }

    /// CRC-32C of `bytes` by the portable table, whatever the CPU has: what a machine without the
    /// instruction computes, for tests to hold the two paths to one answer.
    static func portableCRC32C(_ bytes: Data) -> UInt32 {
        bytes.withUnsafeBytes { imgfetch_crc32c_portable(0, $0.baseAddress, $0.count) }
    }

    /// Whether `crc32c` uses the CPU's instruction here.
    static var usesInstruction: Bool { imgfetch_crc32c_has_instruction() == 1 }

    /// `checksum` as the envelope writes it: 8 lowercase hex digits.
    static func hex(_ checksum: UInt32) -> String {
        let digits = String(checksum, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
