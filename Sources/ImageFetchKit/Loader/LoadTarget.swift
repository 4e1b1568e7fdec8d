import FoundationEssentials

/// What one load produces and where it is kept: the original image of a URL, or a variant a
/// transform makes of that original. Both go through the same flow (`ImageLoader+Flow`); they
/// differ only in their producer: the origin for an original, the original's own load and a
/// transform for a variant, with the remote tier in front of either.
struct LoadTarget: Sendable {
    let url: URL
    /// Where the result is cached: the original's key, or the variant's (`original.variant(spec)`).
    let key: CacheKey
    /// The original's key, which is `key` itself for an original.
    let original: CacheKey
    /// The transform a variant applies; nil for the original.
    let spec: TransformSpec?

    static func original(_ url: URL, key: CacheKey) -> LoadTarget {
        LoadTarget(url: url, key: key, original: key, spec: nil)
    }

    static func variant(_ url: URL, original: CacheKey, spec: TransformSpec) -> LoadTarget {
        LoadTarget(url: url, key: original.variant(spec), original: original, spec: spec)
    }

    var isVariant: Bool { spec != nil }

    /// `image` as this target reports it: a variant's image carries the spec's normal form.
    func labelled(_ image: LoadedImage) -> LoadedImage {
        guard let spec else { return image }
        var labelled = image
        labelled.variant = spec.description
        return labelled
    }
}
