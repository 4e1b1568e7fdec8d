/// What the boxes of a HEIF-family file (HEIC, AVIF) say about its image, read without touching
/// the coded data: the `ftyp` brands, the primary item's properties (`ispe` size, `pixi` bit
/// depth, `clap` crop, `irot` rotation, `imir` mirroring), whether an alpha auxiliary image exists, and, for an
/// image sequence, the size and sample count of its first image track in `moov`.
///
/// Every top-level box must lie within the data: a file that stops inside one is truncated.
struct HEIFFile {
    var majorBrand: UInt32 = 0
    var compatibleBrands: [UInt32] = []
    /// The primary item's `ispe` size, before `clap` and `irot`; nil when there is no primary item.
    var itemSize: (width: Int, height: Int)?
    /// The `clap` clean aperture of the primary item, rounded as libheif rounds it.
    var cleanApertureSize: (width: Int, height: Int)?
    /// Quarter turns anticlockwise (`irot`, 0–3) of the primary item.
    var rotation = 0
    /// The primary item's `imir` axis (its low bit), applied after `irot`; nil without one.
    var mirrorAxis: Int?
    var bitDepth = 8
    var hasAlpha = false
    /// The first image track's `tkhd` size and `stsz` sample count, when `moov` has one.
    var trackSize: (width: Int, height: Int)?
    var trackSamples: Int?

    private let format: ImageFormat

    init(_ bytes: ByteReader, format: ImageFormat) throws(DecodeError) {
        self.format = format
        let top = try ISOBox.children(of: bytes, from: 0, to: bytes.count, format: format)
        guard let ftyp = top.first, ftyp.type == ISOBox.code("ftyp"), ftyp.end - ftyp.payload >= 8 else {
            throw .corrupt(format, reason: "it does not start with an ftyp box")
        }
        majorBrand = UInt32(bytes.uint32BE(at: ftyp.payload) ?? 0)
        compatibleBrands = stride(from: ftyp.payload + 8, to: ftyp.end - 3, by: 4).compactMap { bytes.uint32BE(at: $0).map(UInt32.init) }
        if let meta = top.first(ISOBox.code("meta")) { try readMeta(meta, bytes) }
        if let moov = top.first(ISOBox.code("moov")) { try readMovie(moov, bytes) }
        guard itemSize != nil || trackSize != nil else {
            throw .corrupt(format, reason: "it has neither a primary image with a size (ispe) nor an image track")
        }
    }

    private mutating func readMeta(_ meta: ISOBox, _ bytes: ByteReader) throws(DecodeError) {
        let boxes = try meta.children(of: bytes, skip: 4, format: format)
        guard let pitm = boxes.first(ISOBox.code("pitm")) else { return }
        let primary = bytes.uint8(at: pitm.payload) == 0 ? bytes.uint16BE(at: pitm.payload + 4) : bytes.uint32BE(at: pitm.payload + 4)
        guard let primary, let iprp = boxes.first(ISOBox.code("iprp")) else {
            throw .corrupt(format, reason: "the primary item has no properties")
        }
        let propertyBoxes = try iprp.children(of: bytes, format: format)
        guard let ipco = propertyBoxes.first(ISOBox.code("ipco")), let ipma = propertyBoxes.first(ISOBox.code("ipma")) else {
            throw .corrupt(format, reason: "the primary item has no properties")
        }
        let properties = try ipco.children(of: bytes, format: format)
        hasAlpha = properties.contains { $0.type == ISOBox.code("auxC") && Self.namesAlpha($0, bytes) }
        for index in try Self.associations(of: primary, in: ipma, bytes, format: format) where index <= properties.count {
            readProperty(properties[index - 1], bytes)
        }
        guard itemSize != nil else { throw .corrupt(format, reason: "the primary item has no size (ispe)") }
    }

    private mutating func readProperty(_ box: ISOBox, _ bytes: ByteReader) {
        switch box.type {
        case ISOBox.code("ispe"):
            if let width = bytes.uint32BE(at: box.payload + 4), let height = bytes.uint32BE(at: box.payload + 8) {
                itemSize = (width, height)
            }
        case ISOBox.code("pixi"):
            if let channels = bytes.uint8(at: box.payload + 4), channels > 0, let bits = bytes.uint8(at: box.payload + 5) {
                bitDepth = Int(bits)
            }
        case ISOBox.code("irot"):
            rotation = Int(bytes.uint8(at: box.payload) ?? 0) & 3
        case ISOBox.code("imir"):
            mirrorAxis = bytes.uint8(at: box.payload).map { Int($0) & 1 }
        case ISOBox.code("clap"):
            let fields = (0..<4).compactMap { bytes.uint32BE(at: box.payload + $0 * 4) }
            if fields.count == 4, fields[1] > 0, fields[3] > 0 {
                cleanApertureSize = ((fields[0] + fields[1] / 2) / fields[1], (fields[2] + fields[3] / 2) / fields[3])
            }
        default:
            break
        }
    }

    /// The 1-based `ipco` indices `ipma` associates with `item`.
    private static func associations(of item: Int, in ipma: ISOBox, _ bytes: ByteReader, format: ImageFormat) throws(DecodeError) -> [Int] {
        guard let version = bytes.uint8(at: ipma.payload), let flags = bytes.uint8(at: ipma.payload + 3),
              let entries = bytes.uint32BE(at: ipma.payload + 4) else { throw .corrupt(format, reason: "the ipma box is cut short") }
        var offset = ipma.payload + 8
        for _ in 0..<entries {
            let id = version < 1 ? bytes.uint16BE(at: offset) : bytes.uint32BE(at: offset)
            offset += version < 1 ? 2 : 4
            guard let id, let count = bytes.uint8(at: offset), offset + 1 + Int(count) * (flags & 1 == 1 ? 2 : 1) <= ipma.end else {
                throw .corrupt(format, reason: "the ipma box is cut short")
            }
            offset += 1
            var indices: [Int] = []
            for _ in 0..<count {
                // The top bit marks an essential property; the rest is the index.
                if flags & 1 == 1 { indices.append((bytes.uint16BE(at: offset) ?? 0) & 0x7FFF); offset += 2 }
                else { indices.append(Int(bytes.uint8(at: offset) ?? 0) & 0x7F); offset += 1 }
            }
            if id == item { return indices.filter { $0 > 0 } }
        }
        return []
    }

    private static func namesAlpha(_ auxC: ISOBox, _ bytes: ByteReader) -> Bool {
        guard let urn = bytes.ascii(at: auxC.payload + 4, length: max(0, auxC.end - auxC.payload - 4), lossy: true) else { return false }
        return urn.hasPrefix("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha") || urn.hasPrefix("urn:mpeg:hevc:2015:auxid:1")
    }

    /// The first image track's size (`tkhd`, 16.16 fixed point) and sample count (`stsz`): a track
    /// whose handler (`hdlr`) is `pict` or `vide`. An audio or metadata track beside a still image
    /// (a camera's HEIF with sound) is not a sequence of images.
    private mutating func readMovie(_ moov: ISOBox, _ bytes: ByteReader) throws(DecodeError) {
        for trak in try moov.children(of: bytes, format: format) where trak.type == ISOBox.code("trak") {
            let trackBoxes = try trak.children(of: bytes, format: format)
            guard let mdia = trackBoxes.first(ISOBox.code("mdia")) else { continue }
            let mediaBoxes = try mdia.children(of: bytes, format: format)
            guard let hdlr = mediaBoxes.first(ISOBox.code("hdlr")), hdlr.payload + 12 <= hdlr.end,
                  let handler = bytes.uint32BE(at: hdlr.payload + 8).map(UInt32.init),
                  handler == ISOBox.code("pict") || handler == ISOBox.code("vide") else { continue }
            try readImageTrack(trackBoxes, mediaBoxes, bytes)
            return
        }
    }

    private mutating func readImageTrack(_ trackBoxes: [ISOBox], _ mediaBoxes: [ISOBox], _ bytes: ByteReader) throws(DecodeError) {
        if let tkhd = trackBoxes.first(ISOBox.code("tkhd")) {
            let sizeOffset = tkhd.payload + (bytes.uint8(at: tkhd.payload) == 1 ? 88 : 76)
            if let width = bytes.uint32BE(at: sizeOffset), let height = bytes.uint32BE(at: sizeOffset + 4), sizeOffset + 8 <= tkhd.end {
                trackSize = (width >> 16, height >> 16)
            }
        }
        var path = mediaBoxes
        for name: StaticString in ["minf", "stbl"] {
            guard let box = path.first(ISOBox.code(name)) else { return }
            path = try box.children(of: bytes, format: format)
        }
        if let stsz = path.first(ISOBox.code("stsz")), stsz.payload + 12 <= stsz.end {
            trackSamples = bytes.uint32BE(at: stsz.payload + 8)
        }
    }
}
