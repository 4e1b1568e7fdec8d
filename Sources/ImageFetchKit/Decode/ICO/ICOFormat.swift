extension ImageFormat {
    public static let ico: ImageFormat = .init(rawValue: "ico", displayName: "ICO", fileExtension: "ico", stampCode: 8) { ImageFormatSpec.ico }
}

extension ImageFormatSpec {
    /// ICO (type 1) and its twin CUR (type 2): a reserved zero, the type, a non-zero image count.
    /// Read by imgfetch's own parser (embedded PNGs by the PNG decoder, which loads libpng).
    static let ico = ImageFormatSpec(.ico, decoder: ICODecoder()) { bytes in
        guard bytes.matches([0x00, 0x00], at: 0), let type = bytes.uint16LE(at: 2), type == 1 || type == 2,
              let count = bytes.uint16LE(at: 4) else { return false }
        // An ISO media file whose `ftyp` box is 256 or 512 bytes long starts the same way.
        return count > 0 && !bytes.matches(Array("ftyp".utf8), at: 4)
    }
}
