import FoundationEssentials

/// The bytes of one remote object: the image, then a one-line trailer with the object format's
/// version, the key's hash and the image's CRC-32C and length. The trailer travels inside the
/// object, so it survives any store (a WebDAV server keeps no custom headers), and a damaged,
/// truncated or misplaced object is caught before it is decoded. A trailer rather than a header:
/// the image is then the object's first bytes, handed on without a copy.
///
/// Why a CRC and not a cryptographic hash: the check is for damage (a bit flipped on a disk or a
/// wire, an upload cut short), and a CRC-32C catches that at the CPU's speed (see
/// `ContentChecksum`). A writer who can forge an object could forge any hash beside it, so a hash
/// bought no safety against poisoning: the image is validated like an origin response anyway,
/// and workers that must not be trusted use the read mode.
///
/// Format 2: the bytes, then `imgfetch-remote-2 key=<key hash> crc32c=<8 hex digits> bytes=<decimal>\n`.
/// Format 1 (earlier builds) carried `sha256=<64 hex digits>` instead. The version also names the
/// folder objects live in (`RemoteObjectName`), so builds of different formats sharing a tier
/// never fetch each other's objects; one found anyway is a miss, never served nor called damaged.
enum RemoteEnvelope {
    static let formatVersion = 2
    private static let magicPrefix = "imgfetch-remote-"
    private static let magic = "\(magicPrefix)\(formatVersion)"
    /// The trailer is shorter; an object without one this close to its end is not an envelope.
    private static let maxTrailerBytes = 256

    /// What an object turned out to hold.
    enum Contents: Equatable {
        /// The image, checked whole and stored for the key.
        case image(Data)
        /// An object in another format version: a miss.
        case otherFormat(version: String)
        /// Why the object cannot be trusted, in a short phrase.
        case damaged(reason: String)
    }

    /// `image`, stored for `key`, sealed with its checksum and length.
    static func seal(_ image: Data, for key: CacheKey) -> Data {
        let checksum = ContentChecksum.hex(ContentChecksum.crc32c(image))
        var sealed = image
        sealed.append(contentsOf: "\(magic) key=\(key.hash) crc32c=\(checksum) bytes=\(image.count)\n".utf8)
        return sealed
    }

    /// The image inside `object`, fetched for `key`, if the object is whole and in this format.
    static func open(_ object: Data, for key: CacheKey) -> Contents {
        guard object.last == UInt8(ascii: "\n"), let start = trailerStart(in: object) else {
            return .damaged(reason: "not an imgfetch object")
        }
        let words = String(decoding: object[start..<(object.endIndex - 1)], as: UTF8.self).split(separator: " ")
        if words[0] != magic {
            return .otherFormat(version: String(words[0].dropFirst(magicPrefix.count)))
        }
        guard words.count == 4, words[1].hasPrefix("key="), words[2].hasPrefix("crc32c="),
              words[3].hasPrefix("bytes="), let length = Int(words[3].dropFirst("bytes=".count)) else {
            return .damaged(reason: "not an imgfetch object")
        }
        guard words[1].dropFirst("key=".count) == key.hash else {
            return .damaged(reason: "it was stored for another key")
        }
        let image = object[object.startIndex..<start]
        guard image.count == length else {
            return .damaged(reason: "\(image.count) bytes where its trailer says \(length)")
        }
        guard ContentChecksum.hex(ContentChecksum.crc32c(image)) == words[2].dropFirst("crc32c=".count) else {
            return .damaged(reason: "its content does not match its CRC-32C")
        }
        return .image(image)
    }

    /// Where the last occurrence of the magic prefix (any version) begins within the object's
    /// last bytes.
    private static func trailerStart(in object: Data) -> Data.Index? {
        let word = Array(magicPrefix.utf8)
        guard object.count >= word.count else { return nil }
        let lowest = max(object.startIndex, object.endIndex - maxTrailerBytes)
        var index = object.endIndex - word.count
        while index >= lowest {
            if object[index] == word[0], object[index..<(index + word.count)].elementsEqual(word) { return index }
            index -= 1
        }
        return nil
    }
}
