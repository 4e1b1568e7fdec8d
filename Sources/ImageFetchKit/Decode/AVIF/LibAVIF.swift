import CImageCodecs

/// The one file that calls libavif, through CImageCodecs' avif.c, which keeps libavif's
/// structures on the C side.
enum LibAVIF {
    /// Decodes the first frame into `rgba` (`width` × `height` × 4 bytes) and, with `everyFrame`,
    /// every later frame of a sequence without keeping it. Returns an `IMGFETCH_CODEC_` status.
    static func decode(
        _ data: UnsafePointer<UInt8>?, _ count: Int, _ rgba: UnsafeMutablePointer<UInt8>?,
        width: Int, height: Int, everyFrame: Bool, _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> Int32 {
        imgfetch_avif_decode(data, count, rgba, UInt32(width), UInt32(height), everyFrame ? 1 : 0, message, messageSize)
    }
}
