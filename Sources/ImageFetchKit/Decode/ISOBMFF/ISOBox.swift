/// One box of an ISO base media file (ISO/IEC 14496-12), the container of AVIF and HEIC: its
/// four-character type and where its payload lies in the data.
struct ISOBox {
    /// The box type as its four ASCII bytes read big-endian (`ISOBox.code("ftyp")`).
    let type: UInt32
    /// Offset of the first byte after the size and type (and 64-bit size, if any).
    let payload: Int
    /// Offset one past the box's last byte.
    let end: Int

    /// The type code of a four-character name such as "ftyp".
    static func code(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The boxes one after another in `start..<end` of `bytes`, whose own sizes must keep them
    /// inside it. A box that runs past `end` is `.truncated` when `end` is the end of the data
    /// (the file stops early) and `.corrupt` otherwise (it overflows its parent).
    static func children(
        of bytes: ByteReader, from start: Int, to end: Int, format: ImageFormat
    ) throws(DecodeError) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var offset = start
        while offset < end {
            guard offset + 8 <= end, let size32 = bytes.uint32BE(at: offset), let type = bytes.uint32BE(at: offset + 4) else {
                throw overrun(format, atEndOfData: end == bytes.count)
            }
            var payload = offset + 8
            var size = size32
            if size32 == 1 {  // a 64-bit size follows the type
                guard payload + 8 <= end, let high = bytes.uint32BE(at: payload), let low = bytes.uint32BE(at: payload + 4) else {
                    throw overrun(format, atEndOfData: end == bytes.count)
                }
                guard high < 1 << 31 else { throw .corrupt(format, reason: "a box declares an impossible 64-bit size") }
                size = high << 32 | low
                payload += 8
            } else if size32 == 0 {  // the box extends to the end of its parent
                size = end - offset
            }
            guard size >= payload - offset else {
                throw .corrupt(format, reason: "a box at byte \(offset) declares the impossible size \(size)")
            }
            guard size <= end - offset else { throw overrun(format, atEndOfData: end == bytes.count) }
            boxes.append(ISOBox(type: UInt32(type), payload: payload, end: offset + size))
            offset += size
        }
        return boxes
    }

    /// The boxes inside this one, starting `skip` bytes into its payload (4 for a full box's
    /// version and flags, more for boxes that hold fields before their children).
    func children(of bytes: ByteReader, skip: Int = 0, format: ImageFormat) throws(DecodeError) -> [ISOBox] {
        guard payload + skip <= end else { throw .corrupt(format, reason: "a box is too short for its fields") }
        return try ISOBox.children(of: bytes, from: payload + skip, to: end, format: format)
    }

    private static func overrun(_ format: ImageFormat, atEndOfData: Bool) -> DecodeError {
        atEndOfData ? .truncated(format) : .corrupt(format, reason: "a box runs past the end of the box that holds it")
    }
}

extension [ISOBox] {
    /// The first box of `type`, if any.
    func first(_ type: UInt32) -> ISOBox? { first { $0.type == type } }
}
