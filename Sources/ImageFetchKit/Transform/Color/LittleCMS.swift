import CImageCodecs

/// The one file that calls Little CMS (lcms2), through CImageCodecs' lcms.c, which loads it at the
/// first image that carries a profile.
enum LittleCMS {
    /// Pixels per cmsDoTransform call, whose count is 32-bit.
    private static let chunkPixels = 1 << 24

    /// Converts 4-byte `pixels` in place from the colour space `profile` describes to sRGB RGBA
    /// (`SRGBConversion`, made for this call). Thread-safe.
    ///
    /// - Returns: false, with `pixels` untouched, when lcms cannot read `profile` or it describes
    ///   another colour space than `model`'s (RGB for `.rgba`, CMYK for the CMYK models).
    /// - Throws: `.libraryUnavailable` when liblcms2 cannot be loaded.
    static func convertToSRGB(_ pixels: inout [UInt8], from model: SourceImage.ColorModel, profile: [UInt8]) throws(ColorConversionError) -> Bool {
        guard let conversion = try SRGBConversion(from: model, profile: profile) else { return false }
        conversion.apply(to: &pixels)
        return true
    }

    /// A conversion of 4-byte pixels from one profile's colour space to sRGB RGBA, made once and
    /// applied to any number of images (an animation's frames): making it reads the profile and
    /// builds lcms' tables. RGBA keeps its alpha, CMYK becomes opaque. Perceptual intent, lcms'
    /// built-in sRGB.
    ///
    /// Not `Sendable`: lcms' transform caches the last pixel, so one thread uses it at a time.
    final class SRGBConversion {
        private let transform: cmsHTRANSFORM
        private let model: SourceImage.ColorModel

        /// Nil when lcms cannot read `profile` or it describes another colour space than
        /// `model`'s (RGB for `.rgba`, CMYK for the CMYK models).
        ///
        /// - Throws: `.libraryUnavailable` when liblcms2 cannot be loaded.
        init?(from model: SourceImage.ColorModel, profile: [UInt8]) throws(ColorConversionError) {
            if let failure = imgfetch_lcms_load() { throw .libraryUnavailable(reason: String(cString: failure)) }
            let opened = profile.withUnsafeBytes { bytes in
                imgfetch_cmsOpenProfileFromMem(bytes.baseAddress, cmsUInt32Number(clamping: bytes.count))
            }
            guard let input = opened else { return nil }
            // The transform keeps what it needs of both profiles.
            defer { _ = imgfetch_cmsCloseProfile(input) }
            let (format, space, flags) = switch model {
            case .rgba: (imgfetch_lcms_rgba_8, cmsSigRgbData, cmsUInt32Number(cmsFLAGS_COPY_ALPHA))
            case .cmyk: (imgfetch_lcms_cmyk_8, cmsSigCmykData, cmsUInt32Number(0))
            case .invertedCMYK: (imgfetch_lcms_cmyk_8_reversed, cmsSigCmykData, cmsUInt32Number(0))
            }
            guard imgfetch_cmsGetColorSpace(input) == space, let sRGB = imgfetch_cmsCreate_sRGBProfile() else { return nil }
            defer { _ = imgfetch_cmsCloseProfile(sRGB) }
            let made = imgfetch_cmsCreateTransform(input, format, sRGB, imgfetch_lcms_rgba_8, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
            guard let made else { return nil }
            transform = made
            self.model = model
        }

        deinit { imgfetch_cmsDeleteTransform(transform) }

        /// Converts `pixels` in place.
        func apply(to pixels: inout [UInt8]) {
            pixels.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                // In place: lcms allows it when input and output pixels are the same size (4 bytes).
                var done = 0, total = bytes.count / 4
                while done < total {
                    let count = min(chunkPixels, total - done)
                    imgfetch_cmsDoTransform(transform, base + done * 4, base + done * 4, cmsUInt32Number(count))
                    done += count
                }
                // lcms leaves the output's extra channel alone, so after CMYK it still holds K.
                if model != .rgba {
                    for i in stride(from: 3, to: bytes.count, by: 4) { bytes[i] = 255 }
                }
            }
        }
    }
}
