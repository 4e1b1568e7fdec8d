import FoundationEssentials

/// The frames of an animated PNG, read from its `acTL`, `fcTL` and `fdAT` chunks without
/// inflating anything, and checked against the APNG rules that keep composing them safe.
///
/// Rules: `acTL` comes before the first IDAT and counts the frames, which must be exactly the
/// `fcTL` chunks present; `fcTL` and `fdAT` sequence numbers run 0, 1, 2, … in file order; every
/// frame's rectangle lies within the canvas (so no frame has more pixels than the canvas the
/// registry's limit passed); a frame whose `fcTL` precedes IDAT is the default image and covers the
/// whole canvas; every other frame has at least one `fdAT`.
struct APNGFrames {
    /// One frame's control chunk and the chunks holding its compressed pixels.
    struct Frame {
        let width: Int
        let height: Int
        /// The default image (IDAT) is this frame.
        let isDefaultImage: Bool
        /// Where its rectangle lies on the canvas.
        var x = 0, y = 0
        /// How long it shows: `delayNumerator` / `delayDenominator` seconds (a denominator of 0
        /// means 100).
        var delayNumerator = 0, delayDenominator = 100
        /// What happens to its rectangle before the next frame: 0 none, 1 cleared to transparent
        /// black, 2 put back as it was before this frame.
        var dispose: UInt8 = 0
        /// How it is drawn: 0 replaces its rectangle, 1 is composited over it.
        var blend: UInt8 = 0
        /// Its `fdAT` chunks (empty for the default image).
        var dataChunks: [PNGChunks.Chunk] = []
    }

    let frames: [Frame]
    /// acTL's `num_plays`: how many times the animation plays, 0 for forever.
    let plays: Int
    /// Ancillary and palette chunks between IHDR and the first IDAT, other than APNG's own:
    /// what a standalone PNG of one frame needs to decode like the default image.
    let headerChunks: [PNGChunks.Chunk]

    /// The frame count `acTL` declares, when `png` has an `acTL` before its first IDAT; nil for
    /// a still PNG. Reads chunk headers only up to the first IDAT.
    static func declaredFrameCount(_ png: PNGChunks) throws(DecodeError) -> Int? {
        var count: Int?
        _ = try png.walk { chunk throws(DecodeError) in
            if chunk.type == "acTL" {
                guard chunk.length == 8, let frames = png.bytes.uint32BE(at: chunk.offset + 8) else {
                    throw .corrupt(.png, reason: "the acTL chunk is \(chunk.length) bytes long, not 8")
                }
                guard frames > 0 else { throw .corrupt(.png, reason: "the acTL chunk declares 0 frames") }
                count = frames
            }
            return chunk.type != "IDAT"
        }
        return count
    }

    /// Walks every chunk of an animated PNG (one with `acTL`; the caller has checked that the
    /// chunks are complete) and checks the rules above.
    init(_ png: PNGChunks, declaredCount: Int) throws(DecodeError) {
        let bytes = png.bytes
        var frames: [Frame] = []
        var headerChunks: [PNGChunks.Chunk] = []
        var sawImageData = false
        var nextSequence = 0
        var plays = 0

        func sequence(of chunk: PNGChunks.Chunk) throws(DecodeError) {
            let number = bytes.uint32BE(at: chunk.offset + 8) ?? -1
            guard number == nextSequence else {
                throw .corrupt(.png, reason: "the \(chunk.type) chunk has sequence number \(number) where \(nextSequence) comes next")
            }
            nextSequence += 1
        }
        func checkLastFrameHasData() throws(DecodeError) {
            if let last = frames.last, !last.isDefaultImage, last.dataChunks.isEmpty {
                throw .corrupt(.png, reason: "frame \(frames.count) has no fdAT image data")
            }
        }

        _ = try png.walk { chunk throws(DecodeError) in
            switch chunk.type {
            case "IDAT":
                sawImageData = true
            case "fcTL":
                guard chunk.length == 26 else { throw .corrupt(.png, reason: "an fcTL chunk is \(chunk.length) bytes long, not 26") }
                try sequence(of: chunk)
                try checkLastFrameHasData()
                frames.append(try Self.frame(at: chunk.offset + 8, bytes, png: png, beforeImageData: !sawImageData, number: frames.count + 1))
            case "fdAT":
                guard chunk.length >= 4 else { throw .corrupt(.png, reason: "an fdAT chunk is \(chunk.length) bytes long, too short for its sequence number") }
                try sequence(of: chunk)
                guard let last = frames.last, !last.isDefaultImage else {
                    throw .corrupt(.png, reason: "an fdAT chunk belongs to no frame")
                }
                frames[frames.count - 1].dataChunks.append(chunk)
            case "acTL":
                plays = bytes.uint32BE(at: chunk.offset + 12) ?? 0
            case "IHDR", "IEND":
                break
            default:
                if !sawImageData { headerChunks.append(chunk) }
            }
            return true
        }
        try checkLastFrameHasData()
        guard frames.count == declaredCount else {
            throw .corrupt(.png, reason: "acTL declares \(declaredCount) frames but there are \(frames.count) fcTL chunks")
        }
        self.frames = frames
        self.plays = plays
        self.headerChunks = headerChunks
    }

    /// The frame whose `fcTL` body starts at `body`: sequence, width, height, x, y, delay, dispose, blend.
    private static func frame(
        at body: Int, _ bytes: ByteReader, png: PNGChunks, beforeImageData: Bool, number: Int
    ) throws(DecodeError) -> Frame {
        let width = bytes.uint32BE(at: body + 4) ?? 0, height = bytes.uint32BE(at: body + 8) ?? 0
        let x = bytes.uint32BE(at: body + 12) ?? 0, y = bytes.uint32BE(at: body + 16) ?? 0
        let delayNumerator = bytes.uint16BE(at: body + 20) ?? 0, delayDenominator = bytes.uint16BE(at: body + 22) ?? 0
        let dispose = bytes.uint8(at: body + 24) ?? 0, blend = bytes.uint8(at: body + 25) ?? 0
        guard width > 0, height > 0 else { throw .corrupt(.png, reason: "frame \(number) is \(width)×\(height), which has no pixels") }
        guard x + width <= png.width, y + height <= png.height else {
            throw .corrupt(.png, reason: "frame \(number) (\(width)×\(height) at \(x),\(y)) lies outside the \(png.width)×\(png.height) canvas")
        }
        guard dispose <= 2, blend <= 1 else { throw .corrupt(.png, reason: "frame \(number) has an unknown dispose or blend operation") }
        if beforeImageData {
            guard x == 0, y == 0, width == png.width, height == png.height else {
                throw .corrupt(.png, reason: "frame 1 is the default image but does not cover the canvas")
            }
        }
        return Frame(
            width: width, height: height, isDefaultImage: beforeImageData, x: x, y: y,
            delayNumerator: delayNumerator, delayDenominator: delayDenominator, dispose: dispose, blend: blend
        )
    }
}
