import FoundationEssentials

/// The bytes of one remote object: the image, then a one-line trailer with the key's hash and the
/// image's SHA-256 and length. The hash travels inside the object, so it survives any store (a
/// WebDAV server keeps no custom headers), and a damaged, truncated or misplaced object is caught
/// before it is decoded. (It cannot stop a writer who forges a whole object: workers that must
/// not be trusted use the read mode.) A trailer rather than a header: the image is then the
/// object's first bytes, handed on without a copy.
///
/// Format: the bytes, then `imgfetch-remote-1 key=<key hash> sha256=<64 hex digits> bytes=<decimal>\n`.
enum RemoteEnvelope {
    private static let magic = "imgfetch-remote-1"
    /// The trailer is shorter; an object without one this close to its end is not an envelope.
    private static let maxTrailerBytes = 256

    /// `image`, stored for `key`, sealed with its hash and length.
    static func seal(_ image: Data, for key: CacheKey) -> Data {
        var sealed = image
        sealed.append(contentsOf: "\(magic) key=\(key.hash) sha256=\(ContentHash.sha256Hex(image)) bytes=\(image.count)\n".utf8)
        return sealed
    }

    /// The image inside `object`, fetched for `key`, or why it cannot be trusted (a short phrase).
    static func open(_ object: Data, for key: CacheKey) -> Result<Data, Damage> {
        guard object.last == UInt8(ascii: "\n"), let start = trailerStart(in: object) else {
            return .failure(Damage(reason: "not an imgfetch object"))
        }
        let words = String(decoding: object[start..<(object.endIndex - 1)], as: UTF8.self).split(separator: " ")
        guard words.count == 4, words[0] == magic, words[1].hasPrefix("key="), words[2].hasPrefix("sha256="),
              words[3].hasPrefix("bytes="), let length = Int(words[3].dropFirst("bytes=".count)) else {
            return .failure(Damage(reason: "not an imgfetch object"))
        }
        guard words[1].dropFirst("key=".count) == key.hash else {
            return .failure(Damage(reason: "it was stored for another key"))
        }
        let image = object[object.startIndex..<start]
        guard image.count == length else {
            return .failure(Damage(reason: "\(image.count) bytes where its trailer says \(length)"))
        }
        guard ContentHash.sha256Hex(image) == words[2].dropFirst("sha256=".count) else {
            return .failure(Damage(reason: "its content does not match its SHA-256"))
        }
        return .success(image)
    }

    /// Where the last occurrence of the magic word begins within the object's last bytes.
    private static func trailerStart(in object: Data) -> Data.Index? {
        let word = Array(magic.utf8)
        let lowest = max(object.startIndex, object.endIndex - maxTrailerBytes)
        var index = object.endIndex - word.count
        while index >= lowest {
            if object[index] == word[0], object[index..<(index + word.count)].elementsEqual(word) { return index }
            index -= 1
        }
        return nil
    }

    struct Damage: Error {
        let reason: String
    }
}
