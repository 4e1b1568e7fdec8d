import FoundationEssentials

/// The frames of an animated PNG, composed by the APNG rules: each frame's rectangle replaces
/// what is under it (blend_op source) or is composited over it (over), then before the next frame
/// is kept (dispose_op none), cleared to transparent black (background) or put back as it was
/// (previous; on the first frame, as background). A default image that is not a frame is skipped.
///
/// libpng (Debian's has no APNG support) decodes each frame as a standalone PNG of its rectangle,
/// one at a time; the reader holds the canvas and, for dispose_op previous, a copy of one
/// rectangle. Holds `data` (a reference, not a copy); not `Sendable`, one thread at a time.
final class APNGAnimationReader: AnimationReading {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    /// acTL's num_plays: plays, 0 for forever.
    let loopCount: Int

    private let data: Data
    private let png: PNGChunks
    private let animation: APNGFrames
    private var canvas: RGBACanvas
    private var framesRead = 0
    /// What the last frame left to undo before the next is drawn.
    private var disposal: (rect: RGBACanvas.Rect, mode: UInt8, covered: [UInt8]?)?

    /// A reader of `data`, whose chunks the registry has checked (including the APNG rules) and
    /// whose acTL declares `info.frameCount` frames.
    init(_ data: Data, info: ImageInfo) throws(DecodeError) {
        self.data = data
        png = try PNGChunks(data)
        animation = try APNGFrames(png, declaredCount: info.frameCount)
        (canvasWidth, canvasHeight, frameCount, loopCount) = (png.width, png.height, animation.frames.count, animation.plays)
        canvas = RGBACanvas(width: png.width, height: png.height)
    }

    func nextFrame() throws(DecodeError) -> AnimationFrame? {
        guard framesRead < frameCount else { return nil }
        let frame = animation.frames[framesRead]
        let pixels: [UInt8]
        do {
            pixels = frame.isDefaultImage
                ? try LibPNG.decodeRGBA(data, width: png.width, height: png.height)
                : try LibPNG.decodeRGBA(animation.standalonePNG(of: frame, from: png), width: frame.width, height: frame.height)
        } catch .corrupt(.png, let reason) {
            throw .corrupt(.png, reason: "frame \(framesRead + 1): \(reason)")
        }
        undoLastFrame()
        let rect = RGBACanvas.Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        let mode = framesRead == 0 && frame.dispose == 2 ? 1 : frame.dispose
        disposal = (rect, mode, mode == 2 ? canvas.copy(rect) : nil)
        if frame.blend == 1 { canvas.blendOver(rect, with: pixels) } else { canvas.replace(rect, with: pixels) }
        framesRead += 1
        let denominator = frame.delayDenominator == 0 ? 100 : frame.delayDenominator
        return AnimationFrame(image: canvas.image, duration: (frame.delayNumerator * 1000 + denominator / 2) / denominator)
    }

    private func undoLastFrame() {
        guard let (rect, mode, covered) = disposal else { return }
        if mode == 1 { canvas.clear(rect) }
        if mode == 2, let covered { canvas.replace(rect, with: covered) }
        disposal = nil
    }
}
