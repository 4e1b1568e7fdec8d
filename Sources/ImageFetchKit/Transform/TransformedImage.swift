import FoundationEssentials

/// What a transform made: the encoded variant and what its header says.
struct TransformedImage: Sendable {
    var data: Data
    var format: ImageFormat
    var width: Int
    var height: Int
    var frameCount: Int
}
