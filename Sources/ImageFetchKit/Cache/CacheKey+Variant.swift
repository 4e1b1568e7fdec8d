/// Variants: the images a transform makes of an original, each a cache entry of its own under the
/// original's key plus the transform's normal form (`TransformSpec.description`), separated by a
/// space. A key made from a URL never holds a space (URLs are percent-encoded), so the separator
/// is unambiguous, and every variant key of an original sorts in the range just after it, which
/// is how removal finds them (`DiskCache.removeVariants(of:)`).
extension CacheKey {
    static let variantSeparator: Character = " "

    /// The key of the variant `spec` makes of the image stored under this key.
    public func variant(_ spec: TransformSpec) -> CacheKey {
        CacheKey(rawValue + String(Self.variantSeparator) + spec.description)
    }

    /// The transform's normal form, for a variant's key; nil for an original.
    public var variantSpec: String? {
        guard let space = rawValue.firstIndex(of: Self.variantSeparator) else { return nil }
        return String(rawValue[rawValue.index(after: space)...])
    }

    /// The key of the original this variant was made from; the key itself for an original.
    public var originalKey: CacheKey {
        guard let space = rawValue.firstIndex(of: Self.variantSeparator) else { return self }
        return CacheKey(String(rawValue[..<space]))
    }

    /// The bounds of the key range holding every variant of this (original) key: all keys that
    /// start with the key and the separator, and nothing else (the separator is 0x20, the next
    /// byte 0x21).
    var variantRange: (lower: String, upper: String) {
        (rawValue + " ", rawValue + "!")
    }
}
