/// What a transform makes of an image: a size and how to fit it, an output format and quality,
/// and whether only the first frame is kept. A value with one normal string form
/// (`description`): that string is the variant's cache-key suffix, its label in `cache ls` and
/// its `variant` in JSON, so two specs that make the same image are one variant.
///
/// The normal form depends on the spec alone, never on the source image: a variant must be found
/// in the cache without knowing anything about its original, which may have been evicted.
public struct TransformSpec: Sendable, Hashable, CustomStringConvertible {
    /// How an image is fitted to a box of `width` × `height`.
    public enum Fit: String, Sendable, CaseIterable {
        /// Keep the aspect ratio and fit inside the box (the default).
        case inside
        /// Keep the aspect ratio and fill the box exactly, cropping the centre.
        case cover
        /// Exactly the box, stretched.
        case fill
        /// Keep the aspect ratio, fit inside the box, and pad the rest of the box with the
        /// background (letterboxing).
        case contain
        /// Keep the aspect ratio and cover the box without cropping: one side is the box's, the
        /// other at least as long.
        case outside
    }

    /// Where a `cover` crop is taken, by libvips' and sharp's names: a compass point or the centre,
    /// or where the image is most interesting (`attention`, `entropy`; see `SmartCrop`).
    public enum Gravity: String, Sendable, CaseIterable {
        case centre, north, northeast, east, southeast, south, southwest, west, northwest, attention, entropy

        /// A compass gravity's place for the window on each axis: 0 at the start (west, north), 0.5
        /// centred, 1 at the end; nil for `attention` and `entropy`, which look at the pixels.
        var anchor: (x: Double, y: Double)? {
            switch self {
            case .centre: (0.5, 0.5)
            case .north: (0.5, 0)
            case .northeast: (1, 0)
            case .east: (1, 0.5)
            case .southeast: (1, 1)
            case .south: (0.5, 1)
            case .southwest: (0, 1)
            case .west: (0, 0.5)
            case .northwest: (0, 0)
            case .attention, .entropy: nil
            }
        }
    }

    /// The box; nil for a side that follows from the other by the aspect ratio. Both nil: no
    /// resize (a conversion only).
    public var width: Int?
    public var height: Int?
    public var fit: Fit
    /// Where `cover` crops; `.centre` unless asked.
    public var gravity: Gravity
    /// What `contain` pads with and JPEG output flattens transparency onto; nil: transparent
    /// padding and a white flattening.
    public var background: BackgroundColor?
    /// Without it an image is never enlarged.
    public var upscale: Bool
    /// The output format (JPEG, PNG, WebP or AVIF); nil: the source's rule (see `outputFormat(for:)`).
    public var format: ImageFormat?
    /// 1–100 for JPEG, WebP and AVIF output; nil: the format's default (`defaultQuality(for:)`).
    public var quality: Int?
    /// Make a still image of an animation's first frame.
    public var firstFrame: Bool
    /// WebP output lossless (sharp's `lossless`).
    public var lossless = false
    /// JPEG output progressive (sharp's `progressive`).
    public var progressive = false
    /// The resampling filter (sharp's `kernel`); Lanczos-3 unless asked.
    public var kernel = ResampleKernel.lanczos3
    /// Keep the original's ICC profile and EXIF (orientation reset to 1) in a still variant
    /// (sharp's `keepMetadata`); without it a variant carries no metadata.
    public var keepMetadata = false

    /// The quality JPEG and WebP output get unless one is given, as sharp and most CDNs use.
    public static let defaultQuality = 80
    /// AVIF's default, sharp's: AV1 at 50 looks as JPEG does at 80, in about half the bytes.
    public static let defaultAVIFQuality = 50
    /// The formats a transform writes.
    public static let outputFormats: [ImageFormat] = [.jpeg, .png, .webp, .avif]

    /// The quality `format` is written at unless one is given.
    public static func defaultQuality(for format: ImageFormat) -> Int {
        format == .avif ? defaultAVIFQuality : defaultQuality
    }

    public init(
        width: Int? = nil, height: Int? = nil, fit: Fit = .inside, gravity: Gravity = .centre, upscale: Bool = false,
        format: ImageFormat? = nil, quality: Int? = nil, firstFrame: Bool = false
    ) {
        self.width = width
        self.height = height
        self.fit = fit
        self.gravity = gravity
        self.background = nil
        self.upscale = upscale
        self.format = format
        self.quality = quality
        self.firstFrame = firstFrame
    }

    /// Whether the spec changes the size at all.
    public var resizes: Bool { width != nil || height != nil }

    /// The fit that applies: with one side free, every fit keeps the aspect ratio, so it is `inside`.
    public var effectiveFit: Fit { width != nil && height != nil ? fit : .inside }

    /// The normal form: `256x256 inside`, `256x`, `x128 upscale`, `webp q80`, `512x512 cover jpeg q90
    /// first-frame`, `300x200 cover north`, `256x jpeg q80 keep-metadata`. The size and fit (and a cover's gravity) come first, then the enlargement rule, the format with its
    /// quality (a quality without a format stands alone: the format is the source's), then
    /// `first-frame`.
    public var description: String {
        var words: [String] = []
        if resizes {
            let size = "\(width.map(String.init) ?? "")x\(height.map(String.init) ?? "")"
            words.append(width != nil && height != nil ? "\(size) \(effectiveFit.rawValue)" : size)
            if effectiveFit == .cover, gravity != .centre { words.append(gravity.rawValue) }
            if kernel != .lanczos3 { words.append("kernel \(kernel.rawValue)") }
            if upscale { words.append("upscale") }
        }
        if let format {
            words.append(format.transformName)
            if format != .png { words.append("q\(quality ?? Self.defaultQuality(for: format))") }
        } else if let quality {
            words.append("q\(quality)")
        }
        if lossless { words.append("lossless") }
        if progressive { words.append("progressive") }
        if keepMetadata { words.append("keep-metadata") }
        if let background { words.append("bg \(background)") }
        if firstFrame { words.append("first-frame") }
        return words.joined(separator: " ")
    }

    /// The format the variant of a `source` image is written in: the one asked for; else JPEG, PNG
    /// and WebP stills keep theirs, animations become animated WebP (unless `firstFrame`), and other
    /// stills become PNG.
    public func outputFormat(for source: ImageFormat, animated: Bool) -> ImageFormat {
        if let format { return format }
        if animated && !firstFrame { return .webp }
        return [.jpeg, .png, .webp].contains(source) ? source : .png
    }

    /// Whether the variant keeps every frame of an `animated` source: only as WebP, the one
    /// animated format imgfetch writes; JPEG and PNG output takes the first frame.
    public func keepsAnimation(of source: ImageFormat, animated: Bool) -> Bool {
        animated && !firstFrame && outputFormat(for: source, animated: animated) == .webp
    }

    /// The quality the encoder is given.
    public var effectiveQuality: Int { quality ?? Self.defaultQuality }

    /// The quality an encoder of `format` is given.
    func quality(for format: ImageFormat) -> Int { quality ?? Self.defaultQuality(for: format) }
}

extension ImageFormat {
    /// The name `--format` takes and the normal form writes.
    var transformName: String { rawValue }
}
