import FoundationEssentials

extension WebPContainer {
    /// The ICC profile in the `ICCP` chunk of an extended file (first chunk VP8X with its ICC
    /// flag set), which comes before any image data; nil when there is none or the chunk runs past
    /// the data, or is too short to be a profile. Reads chunk headers only.
    static func iccProfile(in data: Data) -> [UInt8]? {
        let bytes = ByteReader(data)
        guard bytes.ascii(at: 12, length: 4) == "VP8X", let flags = bytes.uint8(at: 20), flags & 0x20 != 0 else { return nil }
        var offset = 12
        while let type = bytes.ascii(at: offset, length: 4), let size = bytes.uint32LE(at: offset + 4) {
            if type == "ICCP" {
                let start = offset + 8
                guard start + size <= bytes.count, size >= ICCProfile.headerLength else { return nil }
                return [UInt8](data[(data.startIndex + start)..<(data.startIndex + start + size)])
            }
            if ["ANIM", "ANMF", "ALPH", "VP8 ", "VP8L"].contains(type) { return nil }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
