import FoundationEssentials

extension PNGChunks {
    /// The most bytes an embedded profile may inflate to: as much as the largest a JPEG can carry
    /// (255 APP2 segments), far more than any real profile, so a zlib bomb in the chunk costs little.
    static let maximumICCProfileSize = 16 << 20

    /// The ICC profile in the `iCCP` chunk (before the image data): a name of 1–79 bytes and a NUL,
    /// compression method 0, then the zlib-compressed profile. Nil when there is none, or when the
    /// chunk breaks those rules, does not inflate, or inflates to something no profile can be
    /// (shorter than a profile header, or over `maximumICCProfileSize`).
    func iccProfile() -> [UInt8]? {
        var found: Chunk?
        _ = try? walk { chunk in
            if chunk.type == "iCCP" { found = chunk }
            return found == nil && chunk.type != "IDAT"
        }
        guard let chunk = found else { return nil }
        let body = chunk.offset + 8
        guard let nameEnd = (body..<min(body + 80, body + chunk.length)).first(where: { bytes.uint8(at: $0) == 0 }),
              nameEnd > body, bytes.uint8(at: nameEnd + 1) == 0
        else { return nil }
        let start = bytes.data.startIndex + nameEnd + 2
        let end = bytes.data.startIndex + body + chunk.length
        guard start <= end, let profile = Zlib.inflate(bytes.data[start..<end], limit: Self.maximumICCProfileSize),
              profile.count >= ICCProfile.headerLength
        else { return nil }
        return profile
    }
}
