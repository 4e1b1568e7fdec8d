import CImageCodecs
import FoundationEssentials

/// The one file that calls libpng, through its simplified `png_image_*` API, which reports
/// errors in the `png_image` struct instead of longjmp-ing through Swift frames.
enum LibPNG {
    /// Decodes into a new RGBA8 buffer of `width` × `height` (the probed size), straight into the
    /// returned array.
    static func decodeRGBA(_ data: Data, width: Int, height: Int) throws(DecodeError) -> [UInt8] {
        try CodecLibraries.load(for: .png)
        var failure: String?
        let byteCount = width * height * 4
        let pixels = PixelBuffer.make(byteCount: byteCount) { buffer in
            // libpng reads the source lazily, so both calls happen while the bytes are pinned.
            failure = data.withUnsafeBytes { source in
                var image = png_image()
                image.version = UInt32(PNG_IMAGE_VERSION)
                defer { imgfetch_png_image_free(&image) }
                guard imgfetch_png_image_begin_read_from_memory(&image, source.baseAddress, source.count) != 0 else {
                    return message(of: image)
                }
                guard Int(image.width) == width, Int(image.height) == height else {
                    return "libpng reads a size of \(image.width)×\(image.height), not \(width)×\(height)"
                }
                image.format = imgfetch_png_format_rgba
                // Without this flag the simplified reader takes 16-bit samples of a file with no
                // gAMA or sRGB chunk for linear light and brightens them on the way to 8 bits
                // (0x8000 became 186); such samples are sRGB-encoded like 8-bit ones, as every
                // other reader takes them.
                image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
                guard imgfetch_png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil) != 0 else {
                    return message(of: image)
                }
                return nil
            }
            if failure != nil { buffer.initialize(repeating: 0) }
        }
        guard let failure else { return pixels }
        if failure.contains("unexpected end") || failure.contains("Not enough image data") { throw .truncated(.png) }
        throw .corrupt(.png, reason: failure)
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
