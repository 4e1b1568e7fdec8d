import FoundationEssentials

/// The transform pipeline, as the best thumbnailers run it: shrink on load, sRGB, Lanczos on
/// premultiplied alpha, upright, encode.
///
/// Why the steps run in this order: the decoder shrinks first (JPEG's DCT scaling, WebP's scaled
/// output) to the smallest size that still has two source pixels for every output pixel, as
/// libvips does, so no later step touches more pixels than it must and Lanczos, not the decoder's
/// box-like scaling, does the last factor of two (a factor of 4 or more left after the decode,
/// as a PNG or GIF leaves it, is first shrunk by averaging blocks, as libvips' shrink does:
/// `BoxShrink`); colour is converted on those decoded pixels, before
/// resampling mixes them; the image is turned upright after resampling, when it is small; no
/// metadata is copied, since the output is upright sRGB, unless `--keep-metadata` asks for the
/// original's ICC profile (the pixels then stay in its RGB space, as libvips leaves them) and its
/// EXIF (orientation reset to 1).
///
/// A value holding only the decoder registry: safe to use from any number of threads at once.
/// Memory: one decoded frame and its resampled copy; for an animation, one composed frame, its
/// resampled copy and the encoder's state.
public struct ImageTransformer: Sendable {
    let decoders: DecoderRegistry

    public init(decoders: DecoderRegistry = .standard) {
        self.decoders = decoders
    }

    /// The variant `spec` makes of the image in `data`, which must pass the registry's validation
    /// within `limits` (unless `validated` says what that validation found already); nil when it
    /// would be the image again (see `changesNothing`), which is then no variant at all.
    func transform(
        _ data: Data, validated: ImageInfo? = nil, spec: TransformSpec, limits: DecodeLimits
    ) throws(TransformError) -> TransformedImage? {
        let info: ImageInfo
        if let validated {
            info = validated
        } else {
            do { info = try decoders.validate(data, limits: limits) } catch { throw .decode(error) }
        }
        let animated = info.frameCount > 1
        let format = spec.outputFormat(for: info.format, animated: animated)
        let geometry = try TransformGeometry(spec: spec, sourceWidth: info.width, sourceHeight: info.height).within(limits)
        if Self.changesNothing(spec, for: info, format: format, geometry: geometry) { return nil }
        let padding = spec.background ?? .clear
        if spec.keepsAnimation(of: info.format, animated: animated) {
            let reader: (any AnimationReading)?
            do { reader = try decoders.animationReader(for: data, limits: limits) } catch { throw .decode(error) }
            if let reader {
                let metadata = spec.keepMetadata ? KeptMetadata.ofAnimation(in: data, format: info.format) : .none
                // A profile the variant does not keep: its frames are converted to sRGB, as a still is.
                let profile = spec.keepMetadata ? nil : KeptMetadata.animationProfile(in: data, format: info.format)
                let conversion = try profile.flatMap(Self.conversionToSRGB(from:))
                return try transformAnimation(reader, spec: spec, metadata: metadata, converting: conversion, limits: limits)
            }
        }
        var (image, profile) = try stillImage(
            data, info: info, geometry: geometry, gravity: spec.gravity, kernel: spec.kernel, keepingProfile: spec.keepMetadata,
            limits: limits)
        if let canvas = geometry.canvas {
            image = image.placed(onCanvasOf: canvas.width, height: canvas.height, x: canvas.x, y: canvas.y, background: padding)
        }
        let metadata = spec.keepMetadata
            ? KeptMetadata(iccProfile: profile, exif: KeptMetadata.uprightEXIF(in: data, format: info.format)) : .none
        let encoded = try encode(image, as: format, spec: spec, metadata: metadata)
        return TransformedImage(data: encoded, format: format, width: image.width, height: image.height, frameCount: 1)
    }

    /// Whether `spec` would give back the image `info` describes: the same format, the same size
    /// (a shrink of an image already smaller, without `--upscale`), upright already, no quality
    /// asked of a lossy encoder, and every frame kept (`--first-frame` of a still changes nothing).
    /// Re-encoding it anyway would cache a copy, often larger, of what is cached already.
    static func changesNothing(_ spec: TransformSpec, for info: ImageInfo, format: ImageFormat, geometry: TransformGeometry) -> Bool {
        let animated = info.frameCount > 1
        return format == info.format && geometry.keepsSize && geometry.canvas == nil && info.orientation == .up
            && !spec.lossless && !spec.progressive
            && (spec.quality == nil || format == .png)
            && (!animated || spec.keepsAnimation(of: info.format, animated: animated))
    }

    /// The first frame of the image in `data` fitted inside `width` × `height` pixels (never
    /// enlarged), upright sRGB: what `imgfetch show` draws. Nothing is encoded or cached.
    public func preview(_ data: Data, fittingWidth width: Int, height: Int, limits: DecodeLimits) throws(TransformError) -> DecodedImage {
        let info: ImageInfo
        do { info = try decoders.validate(data, limits: limits) } catch { throw .decode(error) }
        let spec = TransformSpec(width: max(1, width), height: max(1, height))
        let geometry = TransformGeometry(spec: spec, sourceWidth: info.width, sourceHeight: info.height)
        let (image, _) = try stillImage(data, info: info, geometry: geometry, limits: limits)
        return DecodedImage(info: info, width: image.width, height: image.height, rgba: image.pixels)
    }

    /// The first frame decoded (shrunk on load where the format allows), converted to sRGB,
    /// resampled to `geometry` and turned upright. With `keepingProfile`, pixels in an RGB profile's
    /// space stay in it, and the profile comes back with them.
    private func stillImage(
        _ data: Data, info: ImageInfo, geometry: TransformGeometry, gravity: TransformSpec.Gravity = .centre,
        kernel: ResampleKernel = .lanczos3, keepingProfile: Bool = false, limits: DecodeLimits
    ) throws(TransformError) -> (RGBAImage, profile: [UInt8]?) {
        let minimum = geometry.keepsSize
            ? nil : geometry.minimumStoredDecodeSize(sourceWidth: info.width, sourceHeight: info.height, orientation: info.orientation)
        let source: SourceImage
        do { source = try decoders.decodeForTransform(data, validated: info, minimumStoredSize: minimum) } catch { throw .decode(error) }
        let orientation = source.orientation
        var window = geometry.storedWindow(
            sourceWidth: info.width, sourceHeight: info.height, orientation: orientation,
            decodedWidth: source.width, decodedHeight: source.height)
        let (width, height) = geometry.storedSize(orientation: orientation)
        let profile = keepingProfile ? KeptMetadata.keepableProfile(of: source) : nil
        let srgb: RGBAImage
        if profile != nil {
            srgb = RGBAImage(width: source.width, height: source.height, pixels: source.pixels)
        } else {
            do { srgb = try source.convertedToSRGB() } catch { throw .libraryUnavailable(reason: error.description) }
        }
        if gravity.anchor == nil { window = Self.placed(window, in: srgb, by: gravity) }
        let wholeAtSize = window.x == 0 && window.y == 0 && srgb.width == width && srgb.height == height
            && window.width == Double(width) && window.height == Double(height)
        guard !wholeAtSize else { return (srgb.oriented(by: orientation), profile) }
        // JPEG has no alpha: nothing need look for transparency in every pixel.
        let opaque = info.format == .jpeg || !srgb.hasTransparency
        var (input, region) = (srgb, SourceRegion(window))
        let shrink = BoxShrink(resampling: region, toWidth: width, height: height, kernel: kernel)
        if shrink.shrinks { (input, region) = (shrink.apply(to: srgb, opaque: opaque), shrink.apply(to: region)) }
        let resized = Resampler.resize(input, width: width, height: height, from: region, opaque: opaque, kernel: kernel)
        return (resized.oriented(by: orientation), profile)
    }

    /// `window` (a cover crop, in `image`'s pixels) moved along the axis it cuts to where
    /// `gravity`'s rule (attention or entropy) puts it.
    private static func placed(_ window: TransformGeometry.Window, in image: RGBAImage, by gravity: TransformSpec.Gravity) -> TransformGeometry.Window {
        var placed = window
        if window.width < Double(image.width) - 0.5 {
            let length = max(1, Int(window.width.rounded()))
            placed.x = min(Double(SmartCrop.offset(in: image, length: length, alongX: true, rule: gravity)), Double(image.width) - window.width)
        } else if window.height < Double(image.height) - 0.5 {
            let length = max(1, Int(window.height.rounded()))
            placed.y = min(Double(SmartCrop.offset(in: image, length: length, alongX: false, rule: gravity)), Double(image.height) - window.height)
        }
        return placed
    }

    /// Every frame of an animation resized and encoded as animated WebP, one frame at a time,
    /// with `metadata`'s chunks; each frame first converted to sRGB by `conversion`, if given.
    private func transformAnimation(
        _ reader: any AnimationReading, spec: TransformSpec, metadata: KeptMetadata, converting conversion: LittleCMS.SRGBConversion?,
        limits: DecodeLimits
    ) throws(TransformError) -> TransformedImage {
        let geometry = try TransformGeometry(spec: spec, sourceWidth: reader.canvasWidth, sourceHeight: reader.canvasHeight)
            .within(limits)
        let region = SourceRegion(geometry.window)
        do {
            let (width, height) = geometry.outputSize
            let encoder = try AnimatedWebPEncoder(
                width: width, height: height, loopCount: reader.loopCount, quality: spec.effectiveQuality, lossless: spec.lossless,
                metadata: metadata)
            var frames = 0
            while var frame = try nextFrame(of: reader) {
                conversion?.apply(to: &frame.image.pixels)
                var image = geometry.keepsSize
                    ? frame.image
                    : Resampler.resize(frame.image, width: geometry.width, height: geometry.height, from: region, kernel: spec.kernel)
                if let canvas = geometry.canvas {
                    image = image.placed(onCanvasOf: width, height: height, x: canvas.x, y: canvas.y, background: spec.background ?? .clear)
                }
                try encoder.add(image, durationMilliseconds: frame.duration)
                frames += 1
            }
            return TransformedImage(data: try encoder.finish(), format: .webp, width: width, height: height, frameCount: frames)
        } catch let error as EncodeError {
            throw Self.transformError(error)
        } catch let error as TransformError {
            throw error
        } catch {
            throw .encode(reason: String(describing: error))
        }
    }

    /// The conversion of RGBA pixels in the RGB `profile` to sRGB, made once for every frame; nil
    /// (the pixels left as they are) when lcms cannot use the profile.
    private static func conversionToSRGB(from profile: [UInt8]) throws(TransformError) -> LittleCMS.SRGBConversion? {
        do { return try LittleCMS.SRGBConversion(from: .rgba, profile: profile) } catch {
            throw .libraryUnavailable(reason: error.description)
        }
    }

    private func nextFrame(of reader: any AnimationReading) throws(TransformError) -> AnimationFrame? {
        do { return try reader.nextFrame() } catch { throw .decode(error) }
    }

    private func encode(
        _ image: RGBAImage, as format: ImageFormat, spec: TransformSpec, metadata: KeptMetadata
    ) throws(TransformError) -> Data {
        let quality = spec.quality(for: format)
        let encoder: any ImageEncoding = switch format {
        case .jpeg: JPEGEncoder(quality: quality, progressive: spec.progressive, background: spec.background ?? .white, metadata: metadata)
        case .webp: WebPEncoder(quality: quality, lossless: spec.lossless, metadata: metadata)
        case .avif: AVIFEncoder(quality: quality, metadata: metadata)
        default: PNGEncoder(metadata: metadata)
        }
        do { return try encoder.encode(image) } catch { throw Self.transformError(error) }
    }

    private static func transformError(_ error: EncodeError) -> TransformError {
        switch error {
        case .libraryUnavailable(_, let reason): .libraryUnavailable(reason: reason)
        default: .encode(reason: error.description)
        }
    }
}

extension TransformGeometry {
    /// This geometry, if its output is within the pixel limit.
    func within(_ limits: DecodeLimits) throws(TransformError) -> TransformGeometry {
        let (width, height) = outputSize
        guard width <= limits.maxPixels / height else {
            throw .outputTooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        return self
    }
}

extension SourceRegion {
    init(_ window: TransformGeometry.Window) {
        self.init(x: window.x, y: window.y, width: window.width, height: window.height)
    }
}
