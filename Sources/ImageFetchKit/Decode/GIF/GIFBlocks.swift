import FoundationEssentials

/// The GIF container read without decompressing anything: the logical screen, then a walk over
/// the blocks (image descriptors, extensions, data sub-blocks) to the 0x3B trailer. The walk
/// touches one length byte per sub-block of at most 255 bytes, so it stays cheap.
struct GIFBlocks {
    let width: Int
    let height: Int
    /// Image descriptors seen.
    private(set) var frameCount = 0
    /// Whether a graphic control extension declared a transparent colour index.
    private(set) var hasTransparency = false
    private(set) var firstFrameInterlaced = false
    /// Whether the walk reached the trailer; false when the data ended first.
    private(set) var isComplete = false
    /// The largest frame's size as its image descriptor declares it, which may exceed the logical
    /// screen; and every frame's pixels added up. giflib allocates each frame's declared size and
    /// keeps all frames while it decodes, so these bound what decoding allocates.
    private(set) var largestFrame = (width: 0, height: 0)
    private(set) var totalFramePixels = 0
    /// The repeat count of a NETSCAPE2.0 (or ANIMEXTS1.0) application extension: 0 for forever,
    /// n for n repeats after the first play; nil when there is none (the animation plays once).
    private(set) var repeatCount: Int?
    /// Where each extension with no data sub-blocks starts (its three bytes: 0x21, the label, a
    /// terminator), such as an empty comment: valid, but DGifSlurp misreads it (see GifLib).
    private(set) var emptyExtensionOffsets: [Int] = []

    init(_ data: Data) throws(DecodeError) {
        let bytes = ByteReader(data)
        guard let width = bytes.uint16LE(at: 6), let height = bytes.uint16LE(at: 8), let flags = bytes.uint8(at: 10)
        else { throw .truncated(.gif) }
        self.width = width
        self.height = height
        var offset = 13 + Self.colorTableSize(flags)
        walk: while let introducer = bytes.uint8(at: offset) {
            switch introducer {
            case 0x2C:  // image descriptor
                guard let frameWidth = bytes.uint16LE(at: offset + 5), let frameHeight = bytes.uint16LE(at: offset + 7),
                      let imageFlags = bytes.uint8(at: offset + 9)
                else { break walk }
                if frameWidth * frameHeight > largestFrame.width * largestFrame.height {
                    largestFrame = (frameWidth, frameHeight)
                }
                totalFramePixels += frameWidth * frameHeight
                if frameCount == 0 { firstFrameInterlaced = imageFlags & 0x40 != 0 }
                frameCount += 1
                offset += 10 + Self.colorTableSize(imageFlags) + 1  // + LZW minimum code size
                guard let next = Self.skipSubBlocks(bytes, from: offset) else { break walk }
                offset = next
            case 0x21:  // extension
                guard let label = bytes.uint8(at: offset + 1) else { break walk }
                if label == 0xF9, let size = bytes.uint8(at: offset + 2), size >= 4,
                   let controlFlags = bytes.uint8(at: offset + 3), controlFlags & 0x01 != 0 {
                    hasTransparency = true
                }
                if label == 0xFF, repeatCount == nil { repeatCount = Self.loopExtensionCount(bytes, at: offset + 2) }
                if bytes.uint8(at: offset + 2) == 0 { emptyExtensionOffsets.append(offset) }
                guard let next = Self.skipSubBlocks(bytes, from: offset + 2) else { break walk }
                offset = next
            case 0x3B:
                isComplete = true
                break walk
            default:
                throw .corrupt(.gif, reason: "byte \(offset) starts an unknown block (0x\(String(introducer, radix: 16)))")
            }
        }
    }

    /// The count of a looping application extension whose block (identifier length 11) starts at
    /// `offset`: "NETSCAPE2.0" or "ANIMEXTS1.0", then a 3-byte sub-block of 1 and a 16-bit count.
    private static func loopExtensionCount(_ bytes: ByteReader, at offset: Int) -> Int? {
        guard bytes.uint8(at: offset) == 11,
              bytes.matches(Array("NETSCAPE2.0".utf8), at: offset + 1) || bytes.matches(Array("ANIMEXTS1.0".utf8), at: offset + 1),
              bytes.uint8(at: offset + 12) == 3, bytes.uint8(at: offset + 13) == 1
        else { return nil }
        return bytes.uint16LE(at: offset + 14)
    }

    private static func colorTableSize(_ flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }

    /// The offset after a run of data sub-blocks ending with a zero-length block; nil if the data ends first.
    /// Walked through one pointer rather than `ByteReader`'s reads: this loop visits every
    /// sub-block of every frame, and a `Data` subscript a step (representation, bounds and
    /// exclusivity checks) made it 2.6M of the 93M instructions of a 100-image prefetch with four
    /// GIFs in it (callgrind).
    private static func skipSubBlocks(_ bytes: ByteReader, from start: Int) -> Int? {
        bytes.data.withUnsafeBytes { raw in
            var offset = start
            while offset >= 0, offset < raw.count {
                let length = Int(raw[offset])
                offset += 1 + length
                if length == 0 { return offset }
            }
            return nil
        }
    }
}
