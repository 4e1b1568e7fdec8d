import CImageCodecs
import FoundationEssentials
import Synchronization

/// The one file that calls TurboJPEG. Decompressor handles are costly to create, so a small pool
/// keeps them for reuse; each handle is used by one thread at a time.
enum TurboJPEG {
    /// How CMYK samples are stored: Adobe-marked files (Photoshop, ImageMagick) store them inverted.
    enum CMYKStorage { case plain, inverted }

    /// Decodes into a new RGBA8 buffer of `width` × `height` (the stored frame size), straight into
    /// the returned array with no intermediate copy. A CMYK image is converted to RGB in place.
    /// A stream without its own tables needs a fresh decompressor: a pooled one remembers the
    /// tables of the last image it decoded and would apply them.
    static func decodeRGBA(
        _ data: Data, width: Int, height: Int, cmyk: CMYKStorage?, needsFreshDecompressor: Bool
    ) throws(DecodeError) -> [UInt8] {
        var pixels = try decompress(data, width: width, height: height, cmyk: cmyk != nil, needsFreshDecompressor: needsFreshDecompressor)
        guard let cmyk else { return pixels }
        CMYKFormula.convertToRGBA(&pixels, inverted: cmyk == .inverted)
        return pixels
    }

    /// Decodes into a new buffer of `width` × `height` 4-byte pixels: RGBA, or with `cmyk` the
    /// samples as stored (a YCCK stream converted to CMYK, not to RGB). A size smaller than the
    /// stored one makes libjpeg-turbo decode with DCT scaling: it picks the largest scaling factor
    /// whose `TJSCALED` size fits, so a size from `JPEGScale.scaled` decodes at that factor.
    static func decompress(
        _ data: Data, width: Int, height: Int, cmyk: Bool, needsFreshDecompressor: Bool
    ) throws(DecodeError) -> [UInt8] {
        try CodecLibraries.load(for: .jpeg)
        let pooled = needsFreshDecompressor ? nil : pool.checkOut()
        guard let handle = pooled ?? imgfetch_tjInitDecompress() else {
            throw .corrupt(.jpeg, reason: "libjpeg-turbo could not create a decompressor")
        }
        defer { if pooled != nil { pool.checkIn(handle) } else { imgfetch_tjDestroy(handle) } }
        var failure: String?
        let pixels = PixelBuffer.make(byteCount: width * height * 4) { buffer in
            let status = data.withUnsafeBytes { source in
                imgfetch_tjDecompress2(
                    handle, source.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(source.count),
                    buffer.baseAddress, Int32(width), 0, Int32(height),
                    (cmyk ? TJPF_CMYK : TJPF_RGBA).rawValue, 0
                )
            }
            // A warning (such as corrupt data in one scan) still yields a whole image, as in browsers.
            if status != 0, imgfetch_tjGetErrorCode(handle) != TJERR_WARNING.rawValue {
                failure = String(cString: imgfetch_tjGetErrorStr2(handle))
                buffer.initialize(repeating: 0)
            }
        }
        if let failure { throw .corrupt(.jpeg, reason: String(failure.trimmingWhitespace())) }
        return pixels
    }

    private static let pool = HandlePool()

    /// Keeps up to `capacity` idle handles. Creation and destruction happen outside the lock.
    final class HandlePool: Sendable {
        private let idle = Mutex<[UInt]>([])  // handle addresses; the raw pointers are not Sendable
        private let capacity = max(2, ProcessInfo.processInfo.activeProcessorCount)

        /// An idle handle, or a new one; nil only when TurboJPEG cannot create one.
        func checkOut() -> tjhandle? {
            let address = idle.withLock { $0.popLast() }
            if let address, let pointer = UnsafeMutableRawPointer(bitPattern: address) { return pointer }
            return imgfetch_tjInitDecompress()
        }

        /// Returns a handle from `checkOut` for reuse; the caller must not use it afterwards.
        func checkIn(_ pointer: tjhandle) {
            let address = UInt(bitPattern: pointer)
            let kept = idle.withLock { idle in
                guard idle.count < capacity else { return false }
                idle.append(address)
                return true
            }
            if !kept { imgfetch_tjDestroy(pointer) }
        }
    }
}
