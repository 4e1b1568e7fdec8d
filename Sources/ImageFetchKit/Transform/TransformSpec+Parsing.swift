/// Reading a spec from the words a user types (`--resize 256x256 --fit cover --quality 70`), with
/// every rule checked before any request is made.
extension TransformSpec {
    /// Why a spec was refused; each description names the option and says what it takes.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case size(String)
        case tooLarge(width: Int?, height: Int?, limit: Int)
        case fit(String)
        case format(String)
        case quality(Int)
        /// `--fit` or `--upscale` without `--resize`: there is no box to fit or enlarge to.
        case needsResize(option: String)
        /// `--fit cover` or `fill` with one side of the box: either keeps the aspect ratio then.
        case needsBothSides(fit: Fit)
        /// `--quality` with `--format png`, which is lossless.
        case qualityForPNG
        case gravity(String)
        /// `--gravity` without `--fit cover`: nothing is cropped.
        case gravityNeedsCover
        case background(String)
        /// `--background` with neither `--fit contain` nor `--format jpeg`: nothing is padded or flattened.
        case backgroundWithoutEffect
        case kernel(String)
        /// `--lossless` or `--progressive` with a `--format` they do not apply to.
        case wrongFormat(option: String, format: ImageFormat)
        /// `--keep-metadata` alone: there is no variant, and the original keeps its metadata.
        case keepMetadataAlone

        public var description: String {
            switch self {
            case .size(let text):
                "--resize '\(text)' is not a size: give WxH, W, Wx or xH with whole numbers from 1 to \(TransformSpec.maxSide) (e.g. 256x256, 800x, x600)."
            case .tooLarge(let width, let height, let limit):
                "--resize \(width.map(String.init) ?? "")x\(height.map(String.init) ?? "") is more than the limit of \(limit) pixels (--max-pixels)."
            case .fit(let text):
                "--fit '\(text)' is not one of \(Fit.allCases.map(\.rawValue).joined(separator: ", "))."
            case .format(let text):
                "--format '\(text)' is not one of \(TransformSpec.outputFormats.map(\.transformName).joined(separator: ", "))."
            case .quality(let value):
                "--quality \(value) is out of range: give a whole number from 1 to 100."
            case .needsResize(let option):
                "\(option) changes nothing without --resize: give the box with --resize WxH."
            case .needsBothSides(let fit):
                "--fit \(fit.rawValue) needs both sides of the box (--resize WxH): with one side every fit keeps the aspect ratio, as inside does."
            case .qualityForPNG:
                "--quality changes nothing with --format png, which is lossless: leave it out."
            case .gravity(let text):
                "--gravity '\(text)' is not one of \(Gravity.allCases.map(\.rawValue).joined(separator: ", ")) (center is centre)."
            case .gravityNeedsCover:
                "--gravity changes nothing without --fit cover, the one fit that crops."
            case .background(let text):
                "--background '\(text)' is not a colour: give #rrggbb, #rrggbbaa or a CSS name such as white or transparent."
            case .kernel(let text):
                "--kernel '\(text)' is not one of \(ResampleKernel.allCases.map(\.rawValue).joined(separator: ", "))."
            case .wrongFormat(let option, let format):
                "\(option) changes nothing with --format \(format.transformName): it is for \(option == "--lossless" ? "webp" : "jpeg") output."
            case .keepMetadataAlone:
                "--keep-metadata changes nothing alone: the original is cached as it came, metadata and all; give it with --resize or --format."
            case .backgroundWithoutEffect:
                "--background changes nothing without --fit contain (its padding) or --format jpeg (what transparency is flattened onto)."
            }
        }
    }

    /// The longest side a transform makes: JPEG's limit (WebP's is 16383, which its encoder checks).
    public static let maxSide = 65_500

    /// A spec from the options' texts, each nil when not given; nil overall when nothing asks for
    /// a transform. `maxPixels` bounds the box (both sides given) as it bounds any image. An
    /// option that would change nothing for any image is refused, naming it.
    public static func parse(
        resize: String?, fit: String?, gravity: String? = nil, background: String? = nil, kernel: String? = nil, upscale: Bool,
        format: String?, quality: Int?, lossless: Bool = false, progressive: Bool = false, keepMetadata: Bool = false,
        firstFrame: Bool, maxPixels: Int
    ) throws(ParseError) -> TransformSpec? {
        guard resize != nil || fit != nil || gravity != nil || background != nil || kernel != nil || upscale || format != nil
            || quality != nil || lossless || progressive || firstFrame
        else {
            if keepMetadata { throw .keepMetadataAlone }
            return nil
        }
        var spec = TransformSpec(upscale: upscale, firstFrame: firstFrame)
        if let resize {
            (spec.width, spec.height) = try parseSize(resize)
            if let width = spec.width, let height = spec.height, width > maxPixels / height {
                throw .tooLarge(width: width, height: height, limit: maxPixels)
            }
        }
        if let fit {
            guard let value = Fit(rawValue: fit.lowercased()) else { throw .fit(fit) }
            guard resize != nil else { throw .needsResize(option: "--fit") }
            guard value == .inside || (spec.width != nil && spec.height != nil) else { throw .needsBothSides(fit: value) }
            spec.fit = value
        }
        if upscale, resize == nil { throw .needsResize(option: "--upscale") }
        if let gravity {
            let name = gravity.lowercased() == "center" ? "centre" : gravity.lowercased()
            guard let value = Gravity(rawValue: name) else { throw .gravity(gravity) }
            guard spec.fit == .cover else { throw .gravityNeedsCover }
            spec.gravity = value
        }
        if let format {
            let name = format.lowercased() == "jpg" ? "jpeg" : format.lowercased()
            guard let value = outputFormats.first(where: { $0.transformName == name }) else { throw .format(format) }
            spec.format = value
        }
        if let quality {
            guard (1...100).contains(quality) else { throw .quality(quality) }
            guard spec.format != .png else { throw .qualityForPNG }
            spec.quality = quality
        }
        if let kernel {
            guard let value = ResampleKernel(rawValue: kernel.lowercased()) else { throw .kernel(kernel) }
            guard resize != nil else { throw .needsResize(option: "--kernel") }
            spec.kernel = value
        }
        if lossless, let format = spec.format, format != .webp { throw .wrongFormat(option: "--lossless", format: format) }
        if progressive, let format = spec.format, format != .jpeg { throw .wrongFormat(option: "--progressive", format: format) }
        (spec.lossless, spec.progressive, spec.keepMetadata) = (lossless, progressive, keepMetadata)
        if let background {
            guard let colour = BackgroundColor(parsing: background) else { throw .background(background) }
            guard spec.fit == .contain || spec.format == .jpeg else { throw .backgroundWithoutEffect }
            spec.background = colour
        }
        return spec
    }

    /// `WxH`, `W`, `Wx` or `xH` (an upper-case X too), each side a whole number from 1 to `maxSide`.
    static func parseSize(_ text: String) throws(ParseError) -> (width: Int?, height: Int?) {
        let parts = text.split(separator: "x", maxSplits: 2, omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "X", maxSplits: 2, omittingEmptySubsequences: false)
        }
        func side(_ part: Substring) throws(ParseError) -> Int? {
            if part.isEmpty { return nil }
            guard part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), part.utf8.count <= 6,
                  let value = Int(part), value >= 1, value <= maxSide else { throw .size(text) }
            return value
        }
        switch parts.count {
        case 1:
            guard let width = try side(parts[0]) else { throw .size(text) }
            return (width, nil)
        case 2:
            let (width, height) = (try side(parts[0]), try side(parts[1]))
            guard width != nil || height != nil else { throw .size(text) }
            return (width, height)
        default:
            throw .size(text)
        }
    }
}
