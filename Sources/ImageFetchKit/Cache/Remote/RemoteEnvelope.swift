import FoundationEssentials

/// The bytes of one remote object: a one-line header with the image's SHA-256 and length, then
/// the image. The hash travels inside the object, so it survives any store (a WebDAV server keeps
/// no custom headers) and a damaged or substituted object is caught before it is decoded.
///
/// Format: `imgfetch-remote-1 sha256=<64 hex digits> bytes=<decimal>\n` followed by the bytes.
enum RemoteEnvelope {
    private static let magic = "imgfetch-remote-1"
    /// The header is far shorter; anything without a newline this early is not an envelope.
    private static let maxHeaderBytes = 128

    /// `image` sealed with its hash and length.
    static func seal(_ image: Data) -> Data {
        var sealed = Data("\(magic) sha256=\(SHA256.hexDigest(image)) bytes=\(image.count)\n".utf8)
        sealed.append(image)
        return sealed
    }

    /// The image inside `object`, or why it cannot be trusted (a short sentence).
    static func open(_ object: Data) -> Result<Data, Damage> {
        guard let newline = object.prefix(maxHeaderBytes).firstIndex(of: UInt8(ascii: "\n")) else {
            return .failure(Damage(reason: "not an imgfetch object"))
        }
        let words = String(decoding: object[object.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard words.count == 3, words[0] == magic, words[1].hasPrefix("sha256="), words[2].hasPrefix("bytes="),
              let length = Int(words[2].dropFirst("bytes=".count)) else {
            return .failure(Damage(reason: "not an imgfetch object"))
        }
        let image = object[(newline + 1)...]
        guard image.count == length else {
            return .failure(Damage(reason: "\(image.count) bytes where its header says \(length)"))
        }
        guard SHA256.hexDigest(image) == words[1].dropFirst("sha256=".count) else {
            return .failure(Damage(reason: "its content does not match its SHA-256"))
        }
        return .success(Data(image))
    }

    struct Damage: Error {
        let reason: String
    }
}
