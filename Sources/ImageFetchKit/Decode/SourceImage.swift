/// The first frame of an image decoded for a transform: pixels as the codec produced them (possibly
/// smaller than the image, see `DecoderRegistry.decodeForTransform`) and what the transform needs
/// to make them upright sRGB.
///
/// The transform converts colour and resamples before it turns the image upright, so orientation
/// costs a rearrangement of the small result, not of the decoded frame.
struct SourceImage: Sendable {
    /// How the 4 bytes of each pixel are to be read.
    enum ColorModel: Sendable, Hashable {
        /// RGBA, straight alpha, in the colour space of `iccProfile` (sRGB when there is none).
        case rgba
        /// C, M, Y, K as stored by most writers (0 = no ink).
        case cmyk
        /// C, M, Y, K inverted (255 = no ink), as Adobe-marked JPEGs (Photoshop, ImageMagick) store them.
        case invertedCMYK
    }

    /// Size of `pixels` as stored, before `orientation` is applied.
    let width: Int
    let height: Int
    /// `width * height * 4` bytes in `colorModel`.
    var pixels: [UInt8]
    var colorModel: ColorModel
    /// The embedded ICC profile, if the image carries one.
    var iccProfile: [UInt8]?
    /// How the pixels must be turned to be upright; `.up` when the decoder has already turned them.
    var orientation: ImageOrientation
}
