import FoundationEssentials

/// The PNG container read without inflating anything: the IHDR fields and a walk over the chunk
/// headers (length + type), which costs one bounds check per chunk.
struct PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: Int
    let isInterlaced: Bool
    let bytes: ByteReader

    init(_ data: Data) throws(DecodeError) {
        bytes = ByteReader(data)
        guard bytes.matches(Self.signature, at: 0) else { throw .corrupt(.png, reason: "the PNG signature is wrong") }
        guard let length = bytes.uint32BE(at: 8), let type = bytes.ascii(at: 12, length: 4) else { throw .truncated(.png) }
        guard type == "IHDR", length == 13 else { throw .corrupt(.png, reason: "the first chunk is not a 13-byte IHDR") }
        guard let width = bytes.uint32BE(at: 16), let height = bytes.uint32BE(at: 20),
              let depth = bytes.uint8(at: 24), let color = bytes.uint8(at: 25), let interlace = bytes.uint8(at: 28)
        else { throw .truncated(.png) }
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .corrupt(.png, reason: "the size \(width)×\(height) is beyond the PNG maximum of 2^31-1")
        }
        let allowedDepths: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowedDepths[color] else { throw .corrupt(.png, reason: "colour type \(color) does not exist") }
        guard depths.contains(depth) else {
            throw .corrupt(.png, reason: "bit depth \(depth) is not allowed for colour type \(color)")
        }
        guard interlace <= 1 else { throw .corrupt(.png, reason: "interlace method \(interlace) does not exist") }
        self.width = width
        self.height = height
        self.bitDepth = Int(depth)
        self.colorType = Int(color)
        self.isInterlaced = interlace == 1
    }

    /// One chunk's type and where it sits.
    struct Chunk {
        var type: String
        var offset: Int
        var length: Int
    }

    /// Visits chunk headers in order from IHDR until `visit` returns false or IEND is visited.
    /// Returns false when the data ends before that (a chunk runs past the end).
    func walk(_ visit: (Chunk) throws(DecodeError) -> Bool) throws(DecodeError) -> Bool {
        var offset = 8
        while true {
            guard let length = bytes.uint32BE(at: offset), let type = bytes.ascii(at: offset + 4, length: 4) else { return false }
            guard length <= Int(Int32.max) else { throw .corrupt(.png, reason: "the \(type) chunk has the impossible length \(length)") }
            guard offset + 12 + length <= bytes.count else { return false }
            let chunk = Chunk(type: type, offset: offset, length: length)
            guard try visit(chunk), type != "IEND" else { return true }
            offset += 12 + length
        }
    }
}
