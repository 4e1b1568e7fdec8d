import CImageCodecs
import FoundationEssentials

/// The frames of an AVIF image sequence, decoded one at a time by libavif (through avif.c's
/// sequence calls). AV1 frames are whole pictures, so there is nothing to compose: each is
/// converted to RGBA and turned upright by the file's `irot`, as `decode` turns the first.
///
/// libavif 0.11 does not read the track's edit list, so the loop count is 0 (forever), the
/// common intent of an animated AVIF. Owns a copy of the file's bytes, which libavif reads from,
/// and the decoder; not `Sendable`, one thread at a time.
final class AVIFAnimationReader: AnimationReading {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    let loopCount = 0

    private let info: ImageInfo
    private let bytes: PinnedBytes
    private let sequence: OpaquePointer
    private var framesRead = 0

    /// A reader of `data`, whose boxes the registry has checked; libavif must count the frames
    /// the track's sample table declares (`info.frameCount`).
    init(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try CodecLibraries.load(for: .avif)
        bytes = PinnedBytes(data)
        var opened: OpaquePointer?
        var count: UInt32 = 0
        let base = bytes.base
        if let failure = CodecCall.status(format: .avif, { message, size in
            imgfetch_avif_sequence_open(base, data.count, UInt32(info.storedWidth), UInt32(info.storedHeight), &opened, &count, message, size)
        }) {
            throw failure
        }
        guard let opened else {
            throw .corrupt(.avif, reason: "libavif opened no sequence")
        }
        sequence = opened
        self.info = info
        (canvasWidth, canvasHeight, frameCount) = (info.width, info.height, info.frameCount)
        guard Int(count) == info.frameCount else {
            throw .corrupt(.avif, reason: "libavif reads \(count) frames where the sample table declares \(info.frameCount)")
        }
    }

    deinit {
        imgfetch_avif_sequence_close(sequence)
    }

    func nextFrame() throws(DecodeError) -> AnimationFrame? {
        guard framesRead < frameCount else { return nil }
        var decoded: Int32 = 0
        var duration: UInt64 = 0
        let pixels = try CodecCall.fillRGBA(format: .avif, width: info.storedWidth, height: info.storedHeight) { rgba, message, size in
            imgfetch_avif_sequence_next(sequence, rgba, &decoded, &duration, message, size)
        }
        guard decoded != 0 else {
            throw .corrupt(.avif, reason: "the sequence ends after \(framesRead) of its \(frameCount) frames")
        }
        framesRead += 1
        let upright = DecodedImage(info: info, width: info.storedWidth, height: info.storedHeight, rgba: pixels).turnedUpright()
        return AnimationFrame(
            image: RGBAImage(width: upright.width, height: upright.height, pixels: upright.pixels),
            duration: Int(clamping: duration)
        )
    }
}
