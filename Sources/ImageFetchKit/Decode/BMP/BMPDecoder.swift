import FoundationEssentials

/// Reads BMP files with a parser of imgfetch's own (no C library): the OS/2 core header and
/// BITMAPINFOHEADER through V5; 1-, 4- and 8-bit palettes, 16-bit (555, 565, bit fields), 24-bit,
/// 32-bit (with an alpha mask when it has one); RLE8 and RLE4; bottom-up and top-down rows.
///
/// In a BMP file the fourth byte of an uncompressed 32-bit pixel is reserved, so such pixels are
/// opaque unless bit-field masks name an alpha channel.
public struct BMPDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .bmp }

    /// The 14-byte file header: "BM", file size, two reserved words, the pixel data offset.
    private static let fileHeaderSize = 14

    public func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        let header = try Self.header(of: data)
        return ImageInfo(format: .bmp, width: header.width, height: header.height, hasAlpha: header.hasAlpha, bitDepth: header.bitDepth)
    }

    /// Complete means every uncompressed row is present, or the run-length stream reaches its end
    /// code (or its last row) within the bytes.
    public func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        let header = try Self.header(of: data)
        switch header.compression {
        case .none, .bitFields:
            guard header.pixelDataEnd <= data.count else { throw .truncated(.bmp) }
        case .runLength8, .runLength4:
            guard header.pixelDataEnd <= data.count else { throw .truncated(.bmp) }
            var failure: DecodeError?
            data.withUnsafeBytes { source in
                do throws(DecodeError) {
                    try BMPRunLength.walk(source, header: header, format: .bmp) { _, _, _ in }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
    }

    public func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        let header = try Self.header(of: data)
        let pixels = try BMPPixels.decode(data, header: header, format: .bmp)
        return DecodedImage(info: info, width: header.width, height: header.height, rgba: pixels)
    }

    private static func header(of data: Data) throws(DecodeError) -> BMPHeader {
        let bytes = ByteReader(data)
        guard let pixelOffset = bytes.uint32LE(at: 10) else { throw .truncated(.bmp) }
        return try BMPHeader(bytes, dibOffset: fileHeaderSize, pixelOffset: pixelOffset, isIcon: false, format: .bmp)
    }
}
