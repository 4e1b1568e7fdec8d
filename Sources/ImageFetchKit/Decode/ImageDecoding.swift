import FoundationEssentials

/// Reads one image format. One conforming type per format; `DecoderRegistry` picks it by the
/// format sniffed from the data's magic bytes and applies `DecodeLimits` itself, between
/// `probe` and `decode`.
///
/// Thread safety: implementations are called from many threads at once and must keep no
/// unsynchronised mutable state.
public protocol ImageDecoding: Sendable {
    /// The format this decoder reads; the registry hands it only data sniffed as this format.
    var format: ImageFormat { get }

    /// Reads the header: size, frames, alpha. Must cost next to nothing and never allocate pixels
    /// or anything proportional to the declared size.
    func probe(_ data: Data) throws(DecodeError) -> ImageInfo

    /// `probe`, for a decoder that must hold the size to `limits` itself before it reads further
    /// (JPEG XL, whose library reads the frame headers); the default calls `probe(_:)`.
    func probe(_ data: Data, limits: DecodeLimits) throws(DecodeError) -> ImageInfo

    /// Checks that the container is structurally complete (it ends where the format says it ends)
    /// without decoding pixels. Called after a successful probe.
    func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError)

    /// Whether only decoding can prove `data` complete (a format with no end marker or length to
    /// check); `DecoderRegistry.validate` then decodes every frame too. Default false.
    func provesCompletenessOnlyByDecoding(_ data: Data) -> Bool

    /// Decodes the first frame into RGBA8 of `info.width` × `info.height` (upright), decoding
    /// every frame of an animation to verify it. Called only after probe, limits and structure passed.
    func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage

    /// Decodes every pixel of every frame to prove they decode, keeping none of them. A decoder
    /// that can stream does it in memory bounded by the image width; the default calls `decode`.
    func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError)
}

extension ImageDecoding {
    public func provesCompletenessOnlyByDecoding(_ data: Data) -> Bool { false }

    public func probe(_ data: Data, limits: DecodeLimits) throws(DecodeError) -> ImageInfo {
        try probe(data)
    }

    public func verifyDecoding(_ data: Data, info: ImageInfo) throws(DecodeError) {
        _ = try decode(data, info: info)
    }
}
