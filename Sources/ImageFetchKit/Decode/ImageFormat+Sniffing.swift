import FoundationEssentials

extension ImageFormat {
    /// The format named by the magic bytes at the start of `data`, or nil when none matches.
    ///
    /// Each format's rule lives in its `ImageFormatSpec`, decodable and unsupported formats alike,
    /// so that an unsupported image can be named in its error. Only the first few hundred bytes
    /// are looked at.
    public init?(sniffing data: Data) {
        let bytes = ByteReader(data)
        guard let spec = ImageFormatSpec.all.first(where: { $0.recognises(bytes) }) else { return nil }
        self = spec.format
    }
}
