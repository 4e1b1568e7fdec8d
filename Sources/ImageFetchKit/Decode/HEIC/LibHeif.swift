import CImageCodecs

/// The one file that calls libheif, through CImageCodecs' heif.c, which keeps libheif's
/// structures and its by-value error results on the C side.
enum LibHeif {
    /// Decodes the primary image, cropped and turned as libheif does, into `rgba` (`width` ×
    /// `height` × 4 bytes). Returns an `IMGFETCH_CODEC_` status.
    static func decode(
        _ data: UnsafePointer<UInt8>?, _ count: Int, _ rgba: UnsafeMutablePointer<UInt8>?,
        width: Int, height: Int, _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> Int32 {
        imgfetch_heif_decode(data, count, rgba, UInt32(width), UInt32(height), message, messageSize)
    }
}
