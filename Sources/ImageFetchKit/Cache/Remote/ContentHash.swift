import CCrypto
import FoundationEssentials

/// The SHA-256 that S3's Signature Version 4 signs with a request (`x-amz-content-sha256`): of
/// each uploaded object, in the background. OpenSSL's libcrypto when it loads (its SHA
/// instructions hash at about 1.8 GB/s here), else the package's own portable `SHA256` (about
/// 80 MB/s). Both give the same digest. (Objects read from a tier are checked with the cheaper
/// `ContentChecksum`.)
enum ContentHash {
    /// Whether libcrypto loaded (tried once, at the first hash).
    private static let hasLibcrypto = imgfetch_crypto_load() == nil

    /// SHA-256 of `bytes` as 64 lowercase hex digits.
    static func sha256Hex(_ bytes: Data) -> String {
        if hasLibcrypto {
            var digest = [UInt8](repeating: 0, count: 32)
            let done = bytes.withUnsafeBytes { buffer in
                digest.withUnsafeMutableBufferPointer { imgfetch_sha256(buffer.baseAddress, buffer.count, $0.baseAddress) == 1 }
            }
            if done { return hex(digest) }
        }
        return SHA256.hexDigest(bytes)
    }

    private static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
