/// What the decoders check of an embedded ICC profile before handing it on: only that it can be
/// one. Parsing it is Little CMS's job in the transform, which falls back to sRGB when it cannot.
enum ICCProfile {
    /// The fixed header every profile starts with; fewer bytes are no profile.
    static let headerLength = 128
}
