import FoundationEssentials

/// A decoder with its own way to decode for a transform: at a reduced size (shrink on load), with
/// the embedded colour profile, or without turning or colour-converting what the transform does
/// itself. `DecoderRegistry.decodeForTransform` uses it when the format's decoder conforms, and
/// `decode`'s upright RGBA otherwise.
///
/// Thread safety: as `ImageDecoding`, called from many threads at once.
protocol TransformDecoding: ImageDecoding {
    /// The first frame, as small as the format can decode it while each side stays at least
    /// `minimumStoredSize` (stored orientation; nil for the whole size). Called only after the
    /// registry's probe, limits and structure check passed for `info`.
    func decodeForTransform(
        _ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?
    ) throws(DecodeError) -> SourceImage
}

/// A decoder for a format that can be animated.
///
/// Thread safety: as `ImageDecoding`; each reader it makes belongs to one thread.
protocol AnimationDecoding: ImageDecoding {
    /// A reader of the frames of `data`, whose probe, limits and structure the registry has
    /// checked, and which `info` says has more than one frame; nil when those frames are not an
    /// animation. The reader keeps its own copy of what it needs from `data`.
    func animationReader(for data: Data, info: ImageInfo) throws(DecodeError) -> (any AnimationReading)?
}
