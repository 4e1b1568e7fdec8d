import CImageCodecs
import FoundationEssentials

/// The one file that calls libtiff, through CImageCodecs' tiff.c, which reads the data in place
/// through libtiff's client I/O and keeps libtiff's messages off stderr.
enum LibTIFF {
    /// Decodes the first page into `rgba` (`width` × `height` × 4 bytes) with straight alpha.
    /// Returns an `IMGFETCH_CODEC_` status.
    static func decode(
        _ data: UnsafePointer<UInt8>?, _ count: Int, _ rgba: UnsafeMutablePointer<UInt8>?,
        width: Int, height: Int, _ message: UnsafeMutablePointer<CChar>, _ messageSize: Int
    ) -> Int32 {
        imgfetch_tiff_decode(data, count, rgba, UInt32(width), UInt32(height), message, messageSize)
    }

    /// Decodes every strip or tile of the first page, keeping none.
    static func verify(_ data: Data) throws(DecodeError) {
        try CodecLibraries.load(for: .tiff)
        if let failure = CodecCall.run(data, format: .tiff, { source, count, message, size in
            imgfetch_tiff_verify(source, count, message, size)
        }) { throw failure }
    }
}
