/// The `ftyp` box that opens an ISO media file: the brands that tell AVIF from HEIC.
struct FileTypeBox {
    let majorBrand: String
    /// Only the first 64 are read.
    let compatibleBrands: [String]

    /// The brands HEIF's generic files give as their major brand, leaving the codec to the
    /// compatible brands.
    static let genericBrands: Set<String> = ["mif1", "msf1", "miaf"]

    /// The leading `ftyp` box of `bytes`, or nil when the data does not start with one.
    init?(_ bytes: ByteReader) {
        guard bytes.matches(Array("ftyp".utf8), at: 4), let size = bytes.uint32BE(at: 0),
              let major = bytes.ascii(at: 8, length: 4) else { return nil }
        majorBrand = major
        compatibleBrands = stride(from: 16, to: min(size, bytes.count, 16 + 64 * 4) - 3, by: 4).compactMap { bytes.ascii(at: $0, length: 4) }
    }

    /// Whether the file is of the codec whose brands are `brands`: its major brand is one of them,
    /// or it is generic HEIF and a compatible brand is.
    func names(_ brands: Set<String>) -> Bool {
        brands.contains(majorBrand) || (Self.genericBrands.contains(majorBrand) && compatibleBrands.contains(where: brands.contains))
    }
}
