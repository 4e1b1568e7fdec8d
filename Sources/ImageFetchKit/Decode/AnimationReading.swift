/// Reads an animation's frames one at a time, each composed on the whole canvas, so that a
/// transform holds a frame or two in memory, never the whole animation.
///
/// Not `Sendable`: a reader owns codec state and is used by one thread from start to finish.
protocol AnimationReading: AnyObject {
    /// The canvas size every frame has.
    var canvasWidth: Int { get }
    var canvasHeight: Int { get }
    /// Frames the header declares.
    var frameCount: Int { get }
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int { get }
    /// The next frame as displayed (earlier frames composed under it by the format's disposal
    /// and blending rules), or nil after the last one.
    func nextFrame() throws(DecodeError) -> AnimationFrame?
}

/// One displayed frame of an animation.
struct AnimationFrame: Sendable {
    /// The whole canvas, RGBA straight alpha.
    var image: RGBAImage
    /// How long it is shown, in milliseconds.
    var duration: Int
}
