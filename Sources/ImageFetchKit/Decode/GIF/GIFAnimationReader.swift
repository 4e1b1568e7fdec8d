import CImageCodecs
import FoundationEssentials

/// The frames of a GIF, composed as browsers compose them: each frame painted over the canvas
/// (its transparent index leaves what is under it), clipped to the logical screen, then disposed
/// of before the next by its graphic control extension: kept (0, 1), cleared to transparent
/// black (2), or restored to what it covered (3).
///
/// Reads record by record with giflib, so it holds the canvas, a copy of one frame's rectangle
/// (for disposal 3) and one row of colour indices; never the frames DGifSlurp would keep. giflib
/// itself keeps each frame's descriptor and local colour table, a few hundred bytes a frame.
/// Owns a copy of the file's bytes and the giflib handle; not `Sendable`, one thread at a time.
final class GIFAnimationReader: AnimationReading {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    /// Plays, 0 for forever: a NETSCAPE2.0 repeat count n means n + 1 plays (as browsers and
    /// gif2webp read it), and no such extension means one.
    let loopCount: Int

    private let bytes: PinnedBytes
    private let source: UnsafeMutablePointer<GifLib.MemoryReader>
    private let gif: UnsafeMutablePointer<GifFileType>
    private var canvas: RGBACanvas
    private var framesRead = 0
    /// What the last frame left to undo before the next is painted.
    private var disposal: (rect: RGBACanvas.Rect, mode: Int32, covered: [UInt8]?)?

    /// A reader of `data`, whose blocks the registry has checked (complete, every frame within the
    /// pixel limits) and counted as `info.frameCount` frames on an `info.width` × `info.height` screen.
    init(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try CodecLibraries.load(for: .gif)
        let blocks = try GIFBlocks(data)
        bytes = PinnedBytes(data)
        source = UnsafeMutablePointer.allocate(capacity: 1)
        source.initialize(to: GifLib.MemoryReader(base: UnsafeRawPointer(bytes.base), count: bytes.count, offset: 0))
        var status: Int32 = 0
        guard let gif = imgfetch_DGifOpen(source, GifLib.readFromMemory, &status) else {
            source.deallocate()
            throw GifLib.error(status)
        }
        self.gif = gif
        (canvasWidth, canvasHeight, frameCount) = (info.width, info.height, info.frameCount)
        loopCount = blocks.repeatCount.map { $0 == 0 ? 0 : min($0 + 1, Int(UInt16.max)) } ?? 1
        canvas = RGBACanvas(width: info.width, height: info.height)
    }

    deinit {
        var status: Int32 = 0
        imgfetch_DGifCloseFile(gif, &status)
        source.deallocate()
    }

    func nextFrame() throws(DecodeError) -> AnimationFrame? {
        guard framesRead < frameCount else { return nil }
        undoLastFrame()
        var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            try check(imgfetch_DGifGetRecordType(gif, &record))
            switch record {
            case EXTENSION_RECORD_TYPE:
                try readExtension(into: &control)
            case IMAGE_DESC_RECORD_TYPE:
                try check(imgfetch_DGifGetImageDesc(gif))
                try paintFrame(gif.pointee.Image, control: control)
                framesRead += 1
                return AnimationFrame(image: canvas.image, duration: Int(control.DelayTime) * 10)
            case TERMINATE_RECORD_TYPE:
                throw .corrupt(.gif, reason: "it ends after \(framesRead) of its \(frameCount) frames")
            default:
                throw .corrupt(.gif, reason: "giflib reads an unknown record after frame \(framesRead)")
            }
        }
    }

    /// Reads one extension; a graphic control extension becomes the next frame's `control`. One
    /// longer than its 4 bytes is read for its first 4, as browsers read it; a shorter one is
    /// ignored, as `decode` ignores it.
    private func readExtension(into control: inout GraphicsControlBlock) throws(DecodeError) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(imgfetch_DGifGetExtension(gif, &code, &block))
        // giflib hands each sub-block with its length byte first: flags, delay (2 bytes), index.
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            control.DisposalMode = Int32((block[1] >> 2) & 0x07)
            control.DelayTime = Int32(block[2]) | Int32(block[3]) << 8
            control.TransparentColor = block[1] & 0x01 != 0 ? Int32(block[4]) : NO_TRANSPARENT_COLOR
        }
        while block != nil { try check(imgfetch_DGifGetExtensionNext(gif, &block)) }
    }

    /// Paints the frame whose descriptor giflib has just read, remembering how to dispose of it.
    private func paintFrame(_ desc: GifImageDesc, control: GraphicsControlBlock) throws(DecodeError) {
        guard let colors = desc.ColorMap ?? gif.pointee.SColorMap else {
            throw .corrupt(.gif, reason: "frame \(framesRead + 1) has no colour table")
        }
        let frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
        let rect = RGBACanvas.Rect(x: Int(desc.Left), y: Int(desc.Top), width: frameWidth, height: frameHeight)
            .clipped(toWidth: canvasWidth, height: canvasHeight)
        let mode = control.DisposalMode
        disposal = (rect, mode, mode == DISPOSE_PREVIOUS ? canvas.copy(rect) : nil)
        guard frameWidth > 0, frameHeight > 0 else { return try skipImageData() }
        let palette = GifLib.palette(colors.pointee, transparent: Int(control.TransparentColor))
        let transparent = Int(control.TransparentColor)
        var line = [GifPixelType](repeating: 0, count: frameWidth)
        var rows = GIFRowOrder(height: frameHeight, interlaced: desc.Interlace)
        for _ in 0..<frameHeight {
            try check(imgfetch_DGifGetLine(gif, &line, Int32(frameWidth)))
            let y = Int(desc.Top) + rows.next()
            guard y >= rect.y, y < rect.y + rect.height else { continue }
            let skip = rect.x - Int(desc.Left)
            canvas.withPixels { pixels in
                pixels.withMemoryRebound(to: UInt32.self) { out in
                    for column in 0..<rect.width {
                        let index = Int(line[skip + column])
                        if index != transparent { out[y * canvasWidth + rect.x + column] = palette[index] }
                    }
                }
            }
        }
    }

    /// A frame without pixels still has LZW data; it is read and ignored.
    private func skipImageData() throws(DecodeError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(imgfetch_DGifGetCode(gif, &codeSize, &block))
        while block != nil { try check(imgfetch_DGifGetCodeNext(gif, &block)) }
    }

    private func undoLastFrame() {
        guard let (rect, mode, covered) = disposal else { return }
        if mode == DISPOSE_BACKGROUND { canvas.clear(rect) }
        if mode == DISPOSE_PREVIOUS, let covered { canvas.replace(rect, with: covered) }
        disposal = nil
    }

    private func check(_ status: Int32) throws(DecodeError) {
        if status != GIF_OK { throw GifLib.error(gif.pointee.Error) }
    }
}
