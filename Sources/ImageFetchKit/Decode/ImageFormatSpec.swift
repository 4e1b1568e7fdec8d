/// Everything imgfetch knows of one format beyond its names, declared once in the format's folder:
/// how its bytes are recognised, what decodes it, the library that needs loading first and how a
/// request asks for it. `ImageFormatSpec.all` holds them, in the order of `ImageFormat.allCases`;
/// sniffing, the decoder registry, library loading and the `Accept` header read it.
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

extension ImageFormatSpec {
    /// The spec of every format, in the order of `ImageFormat.allCases`; made at the first sniff,
    /// decode or download, never by a cache hit.
    static let all: [ImageFormatSpec] = ImageFormat.allCases.map(\.spec)
}
