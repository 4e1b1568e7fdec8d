import FoundationEssentials
@testable import ImageFetchKit

extension FuzzTarget {
    /// The pixel limit both image targets use: large enough for every fixture, small enough that
    /// an input claiming a huge canvas is refused from its header, as a download would be.
    static let limits = DecodeLimits(maxPixels: 4_000_000)

    /// Format sniffing, then each format's header probe and completeness check: the Swift parsers
    /// that run on every downloaded body (JPEG markers, PNG chunks, GIF blocks, the WebP container,
    /// and those of the formats added since).
    static let validate = FuzzTarget(
        name: "validate", summary: "sniffing, header probes and completeness checks (Swift parsers)",
        seedSuffixes: seedSuffixes(of: ImageFormat.allCases)
    ) { data in
        let registry = DecoderRegistry.standard
        _ = registry.format(of: data)
        _ = try? registry.validate(data, limits: limits)
    }

    /// The whole path of `--verify decode`: validation, then every pixel of every frame through
    /// the codec libraries, within the pixel limit; and the transform's decoding: a scaled first
    /// frame with its colour profile, and every composed frame of an animation.
    static let decode = FuzzTarget(
        name: "decode", summary: "validate, then decode every frame through the codec libraries, scaled and composed too",
        seedSuffixes: seedSuffixes(of: ImageFormat.decodable)
    ) { data in
        let registry = DecoderRegistry.standard
        guard (try? registry.validate(data, limits: limits)) != nil else { return }
        _ = try? registry.decode(data, limits: limits)
        _ = try? registry.verifyDecoding(data, limits: limits)
        _ = try? registry.decodeForTransform(data, minimumStoredSize: (7, 5), limits: limits)
        guard let reader = try? registry.animationReader(for: data, limits: limits) else { return }
        while (try? reader.nextFrame()) != nil {}
    }

    /// The fixtures of `formats`, by their files' extensions (and ".tiff", which TIFF fixtures also use).
    private static func seedSuffixes(of formats: [ImageFormat]) -> [String] {
        formats.map { "." + $0.fileExtension } + [".tiff"]
    }
}
