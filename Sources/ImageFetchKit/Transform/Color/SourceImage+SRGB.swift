extension SourceImage {
    /// These pixels as sRGB RGBA, straight alpha, at the same size and in the same stored
    /// orientation (turning them upright is a later step, on the smaller resized image):
    ///
    /// - `.rgba` without a profile: the pixels as they are, without a copy or loading lcms.
    /// - A profile of the pixels' colour space (RGB for `.rgba`, CMYK for the CMYK models):
    ///   converted by Little CMS to its built-in sRGB, perceptual intent, alpha kept.
    /// - CMYK without a usable profile: the plain formula the JPEG decoder uses (`CMYKFormula`).
    /// - A profile lcms rejects, or of another colour space, is ignored as browsers ignore it: a
    ///   gray profile on the RGBA pixels of a gray JPEG, say, leaves them as they are.
    ///
    /// Consuming: the conversion happens in this image's buffer when the caller keeps no other
    /// copy of it. Thread-safe.
    ///
    /// - Throws: `.libraryUnavailable` when the image has a profile and liblcms2 cannot be loaded.
    consuming func convertedToSRGB() throws(ColorConversionError) -> RGBAImage {
        var converted: [UInt8] = []
        swap(&converted, &pixels)  // so `self` holds no second reference that would force a copy
        if let iccProfile, try LittleCMS.convertToSRGB(&converted, from: colorModel, profile: iccProfile) {
            return RGBAImage(width: width, height: height, pixels: converted)
        }
        switch colorModel {
        case .rgba: break
        case .cmyk: CMYKFormula.convertToRGBA(&converted, inverted: false)
        case .invertedCMYK: CMYKFormula.convertToRGBA(&converted, inverted: true)
        }
        return RGBAImage(width: width, height: height, pixels: converted)
    }
}
