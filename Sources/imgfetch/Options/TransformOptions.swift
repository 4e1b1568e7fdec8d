import ArgumentParser
import ImageFetchKit

/// The flags that ask for a variant instead of the original (`get`, `prefetch`, `info URL`).
struct TransformOptions: ParsableArguments {
    // Unconditional: `--resize -5x10` is then refused for its value, not reported as a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Resize to fit this box: WxH, W (or Wx) or xH, in pixels; the image is cached as a variant of the original.",
        valueName: "size"))
    var resize: String?

    @Option(help: ArgumentHelp(
        "How to fit the --resize box, by sharp's names: inside (keep the aspect ratio, fit within; the default), cover (fill it, cropping the centre), fill (stretch), contain (fit within and pad the box with --background) or outside (cover it without cropping); all but inside need both sides (WxH).",
        valueName: "mode"), completion: .list(["inside", "cover", "fill", "contain", "outside"]))
    var fit: String?

    @Option(help: ArgumentHelp(
        "Where --fit cover crops, by libvips' and sharp's names: centre (the default), north, northeast, east, southeast, south, southwest, west, northwest, or attention or entropy (libvips' interesting rules: the busiest, most saturated, skin-toned part, or the part of most entropy).",
        valueName: "gravity"),
        completion: .list(["centre", "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest", "attention", "entropy"]))
    var gravity: String?

    @Option(help: ArgumentHelp(
        "The colour --fit contain pads with (default transparent, white in JPEG) and JPEG output flattens transparency onto (default white): #rrggbb, #rrggbbaa or a CSS name, as sharp's background.",
        valueName: "colour"))
    var background: String?

    @Option(help: ArgumentHelp(
        "The resampling filter, by sharp's names: lanczos3 (the default), cubic (Catmull-Rom), linear, or nearest (pixel art stays sharp).",
        valueName: "kernel"), completion: .list(["lanczos3", "cubic", "linear", "nearest"]))
    var kernel: String?

    @Flag(help: "Write WebP losslessly (sharp's lossless; --quality then sets the effort).")
    var lossless = false

    @Flag(help: "Write progressive JPEG (sharp's progressive).")
    var progressive = false

    @Flag(help: "Keep the original's ICC profile (the pixels then stay in its RGB colour space instead of sRGB) and EXIF, with the orientation set to 1, in a still JPEG, PNG, WebP or AVIF variant and in an animated WebP one (sharp's keepMetadata, formerly withMetadata); by default a variant carries no metadata.")
    var keepMetadata = false

    @Flag(help: "Allow enlarging an image smaller than the --resize box (without it, images are only ever made smaller).")
    var upscale = false

    @Option(help: ArgumentHelp(
        "Write the variant as jpeg, png, webp or avif (libavif, as sharp's avif; default: JPEG, PNG and WebP keep theirs, animations become animated WebP, other formats PNG).",
        valueName: "format"), completion: .list(["jpeg", "png", "webp", "avif"]))
    var format: String?

    @Option(help: ArgumentHelp("JPEG, WebP and AVIF quality, 1-100 (default \(TransformSpec.defaultQuality), AVIF \(TransformSpec.defaultAVIFQuality) as sharp's); not with --format png.", valueName: "n"))
    var quality: Int?

    @Flag(help: "Make a still image of an animation's first frame.")
    var firstFrame = false

    /// The spec these flags ask for, with a box held to `maxPixels`; nil when they ask for none.
    func spec(maxPixels: Int) throws(TransformSpec.ParseError) -> TransformSpec? {
        try TransformSpec.parse(
            resize: resize, fit: fit, gravity: gravity, background: background, kernel: kernel, upscale: upscale, format: format,
            quality: quality, lossless: lossless, progressive: progressive, keepMetadata: keepMetadata, firstFrame: firstFrame,
            maxPixels: maxPixels)
    }

    /// Refuses a spec that cannot be made, as a usage error, before any request.
    func validate(maxPixels: Int) throws {
        do { _ = try spec(maxPixels: maxPixels) } catch { throw ValidationError(error.description) }
    }
}
