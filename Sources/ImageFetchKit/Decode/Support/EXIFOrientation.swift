/// The orientation tag (0x0112) of an EXIF block's first IFD: how JPEG's APP1, PNG's `eXIf` and
/// WebP's `EXIF` chunk say a picture taken on its side is to be shown. The block is TIFF-structured
/// (II*\0 or MM\0*), with or without the "Exif\0\0" that JPEG puts before it and some WebP writers copy.
enum EXIFOrientation {
    /// The orientation in the `length` bytes at `offset`; nil when the tag is absent or unreadable.
    static func read(_ bytes: ByteReader, at offset: Int, length: Int) -> ImageOrientation? {
        guard let tag = tag(in: bytes, at: offset, length: length),
              let value = tag.littleEndian ? bytes.uint16LE(at: tag.value) : bytes.uint16BE(at: tag.value)
        else { return nil }
        return ImageOrientation(rawValue: value)
    }

    /// Where the orientation tag's SHORT value lies in `bytes` (within the `length` bytes at
    /// `offset`) and the block's byte order; nil when the tag is absent or not a SHORT.
    static func tag(in bytes: ByteReader, at offset: Int, length: Int) -> (value: Int, littleEndian: Bool)? {
        let prefixed = bytes.matches(Array("Exif".utf8) + [0, 0], at: offset)
        let tiff = prefixed ? offset + 6 : offset
        let end = offset + length
        guard tiff + 8 <= end else { return nil }
        let littleEndian: Bool
        if bytes.matches([0x49, 0x49, 0x2A, 0x00], at: tiff) { littleEndian = true }
        else if bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: tiff) { littleEndian = false }
        else { return nil }
        func u16(_ at: Int) -> Int? { at + 2 <= end ? (littleEndian ? bytes.uint16LE(at: at) : bytes.uint16BE(at: at)) : nil }
        func u32(_ at: Int) -> Int? { at + 4 <= end ? (littleEndian ? bytes.uint32LE(at: at) : bytes.uint32BE(at: at)) : nil }
        guard let ifd = u32(tiff + 4), let entries = u16(tiff + ifd) else { return nil }
        for index in 0..<entries {
            let entry = tiff + ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(entry + 2), type == 3, entry + 10 <= end else { return nil }
                return (entry + 8, littleEndian)
            }
        }
        return nil
    }
}
