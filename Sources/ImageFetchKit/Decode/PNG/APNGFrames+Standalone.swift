import FoundationEssentials

extension APNGFrames {
    /// A still PNG of `frame` alone, for a libpng without APNG support: the canvas's IHDR with
    /// the frame's size, the header chunks (palette, transparency, colour information), the
    /// frame's `fdAT` data as IDAT chunks (sequence number dropped, CRC recomputed) and IEND.
    /// Only for a frame that is not the default image.
    func standalonePNG(of frame: Frame, from png: PNGChunks) -> Data {
        let bytes = png.bytes
        var out = PNGChunks.signature
        var header = [UInt8]((0..<13).map { bytes.uint8(at: 16 + $0) ?? 0 })
        header.replaceSubrange(0..<8, with: Self.bigEndian(frame.width) + Self.bigEndian(frame.height))
        Self.append(type: "IHDR", body: header, to: &out)
        for chunk in headerChunks {
            out += Self.slice(bytes, from: chunk.offset, count: 12 + chunk.length)
        }
        for chunk in frame.dataChunks {
            Self.append(type: "IDAT", body: Self.slice(bytes, from: chunk.offset + 12, count: chunk.length - 4), to: &out)
        }
        Self.append(type: "IEND", body: [], to: &out)
        return Data(out)
    }

    private static func append(type: String, body: [UInt8], to out: inout [UInt8]) {
        let typeAndBody = Array(type.utf8) + body
        out += bigEndian(body.count) + typeAndBody + bigEndian(Int(CRC32.checksum(typeAndBody)))
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private static func slice(_ bytes: ByteReader, from offset: Int, count: Int) -> [UInt8] {
        let start = bytes.data.startIndex + offset
        return [UInt8](bytes.data[start..<(start + count)])
    }
}
