/// Everything imgfetch knows of one format, declared once in the format's folder: how its bytes
/// are recognised, what decodes it, the library that needs loading first and how a request asks
/// for it. `ImageFormatSpec.all` lists them; sniffing, the decoder registry, the cache's stamps,
/// library loading and the `Accept` header all read that list.
///
/// A format only recognised, to be named in an "unsupported" error, has no decoder.
struct ImageFormatSpec: Sendable {
    let format: ImageFormat
    /// Whether the data's first bytes are this format's. The rules of all formats are disjoint,
    /// so the order they are tried in does not matter.
    let recognises: @Sendable (ByteReader) -> Bool
    let decoder: (any ImageDecoding)?
    /// Loaded before the first decode; nil for a format imgfetch parses itself.
    let library: CodecLibrary?
    /// How a default `Accept` header names the format, for one a server would not send for
    /// `image/*` alone; nil for the rest.
    let accept: AcceptToken?

    init(
        _ format: ImageFormat, decoder: (any ImageDecoding)?, library: CodecLibrary? = nil, accept: AcceptToken? = nil,
        recognises: @escaping @Sendable (ByteReader) -> Bool
    ) {
        self.format = format
        self.recognises = recognises
        self.decoder = decoder
        self.library = library
        self.accept = accept
    }
}

/// A media type named in the default `Accept` header, with its place there: the smaller `rank`
/// comes first (the formats imgfetch would rather receive).
struct AcceptToken: Sendable {
    let mediaType: String
    let rank: Int
}

extension ImageFormat {
    /// This format's entry in `ImageFormatSpec.all`.
    var spec: ImageFormatSpec? { ImageFormatSpec.all.first { $0.format == self } }
}
