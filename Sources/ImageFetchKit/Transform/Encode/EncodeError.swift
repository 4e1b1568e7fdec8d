/// Why an image could not be encoded.
///
/// Descriptions are full sentences without the file name or URL; callers prefix that.
enum EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The library that writes `format` could not be loaded (`reason` names it, its Debian
    /// package and why): an installation problem, nothing wrong with the image.
    case libraryUnavailable(ImageFormat, reason: String)
    /// The library refused or failed; `reason` is its message.
    case failed(ImageFormat, reason: String)
    /// The image is 0 pixels wide or high.
    case emptyImage(width: Int, height: Int)
    /// The format cannot hold an image this wide or high (JPEG 65500, WebP 16383 pixels).
    case tooLarge(ImageFormat, width: Int, height: Int, limit: Int)
    /// An animation frame is not the size of the animation's canvas.
    case frameSizeMismatch(width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)
    /// `finish()` was called on an animation with no frames.
    case noFrames
    /// A frame was added, or `finish()` called, after the animation was finished.
    case alreadyFinished

    var description: String {
        switch self {
        case .libraryUnavailable(let format, let reason):
            "\(format.displayName) images cannot be written here: \(reason)."
        case .failed(let format, let reason):
            "The image could not be encoded as \(format.displayName): \(reason)."
        case .emptyImage(let width, let height):
            "The image is \(width)×\(height) pixels, which has nothing to encode."
        case .tooLarge(let format, let width, let height, let limit):
            "The image is \(width)×\(height) pixels, but \(format.displayName) holds at most \(limit) pixels a side."
        case .frameSizeMismatch(let width, let height, let canvasWidth, let canvasHeight):
            "An animation frame is \(width)×\(height) pixels, but the animation's canvas is \(canvasWidth)×\(canvasHeight)."
        case .noFrames:
            "The animation has no frames, so there is no file to write."
        case .alreadyFinished:
            "The animation was already finished; a finished encoder takes no more frames."
        }
    }
}
