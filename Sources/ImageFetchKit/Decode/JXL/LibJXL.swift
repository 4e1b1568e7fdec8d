import CImageCodecs
import FoundationEssentials

/// The one file that calls libjxl, through CImageCodecs' jxl.c, which drives libjxl's event loop
/// (and its thread pool, for decoding) on the C side.
enum LibJXL {
    /// Size as displayed, alpha, bit depth and displayed frame count, from the headers only.
    static func readHeaders(_ data: Data) throws(DecodeError) -> imgfetch_jxl_info {
        try CodecLibraries.load(for: .jxl)
        var info = imgfetch_jxl_info()
        if let failure = CodecCall.run(data, format: .jxl, { source, count, message, size in
            imgfetch_jxl_probe(source, count, &info, message, size)
        }) { throw failure }
        return info
    }

    /// Decodes the first frame, upright, into `rgba` (`width` × `height` × 4 bytes) and, with
    /// `everyFrame`, every later frame without keeping it. Returns an `IMGFETCH_CODEC_` status.
    static func decode(
        _ data: UnsafePointer<UInt8>?, _ count: Int, _ rgba: UnsafeMutablePointer<UInt8>?,
        width: Int, height: Int, everyFrame: Bool, _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> Int32 {
        imgfetch_jxl_decode(data, count, rgba, UInt32(width), UInt32(height), everyFrame ? 1 : 0, message, messageSize)
    }
}
