import FoundationEssentials

/// The bytes of one remote object: a one-line header with the key's hash, the image's SHA-256
/// and length, then the image. The hash travels inside the object, so it survives any store (a
/// WebDAV server keeps no custom headers), and a damaged, truncated or misplaced object is caught
/// before it is decoded. (It cannot stop a writer who forges a whole object: workers that must
/// not be trusted use the read mode.)
///
/// Format: `imgfetch-remote-1 key=<key hash> sha256=<64 hex digits> bytes=<decimal>\n`, then the bytes.
enum RemoteEnvelope {
    private static let magic = "imgfetch-remote-1"
    /// The header is shorter; anything without a newline this early is not an envelope.
    private static let maxHeaderBytes = 256

    /// `image`, stored for `key`, sealed with its hash and length.
    static func seal(_ image: Data, for key: CacheKey) -> Data {
        var sealed = Data("\(magic) key=\(key.hash) sha256=\(ContentHash.sha256Hex(image)) bytes=\(image.count)\n".utf8)
        sealed.append(image)
        return sealed
    }

    /// The image inside `object`, fetched for `key`, or why it cannot be trusted (a short phrase).
    static func open(_ object: Data, for key: CacheKey) -> Result<Data, Damage> {
        guard let newline = object.prefix(maxHeaderBytes).firstIndex(of: UInt8(ascii: "\n")) else {
            return .failure(Damage(reason: "not an imgfetch object"))
        }
        let words = String(decoding: object[object.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard words.count == 4, words[0] == magic, words[1].hasPrefix("key="), words[2].hasPrefix("sha256="),
              words[3].hasPrefix("bytes="), let length = Int(words[3].dropFirst("bytes=".count)) else {
            return .failure(Damage(reason: "not an imgfetch object"))
        }
        guard words[1].dropFirst("key=".count) == key.hash else {
            return .failure(Damage(reason: "it was stored for another key"))
        }
        let image = object[(newline + 1)...]
        guard image.count == length else {
            return .failure(Damage(reason: "\(image.count) bytes where its header says \(length)"))
        }
        guard ContentHash.sha256Hex(image) == words[2].dropFirst("sha256=".count) else {
            return .failure(Damage(reason: "its content does not match its SHA-256"))
        }
        return .success(Data(image))
    }

    struct Damage: Error {
        let reason: String
    }
}
