/// The EXIF orientation tag (0x0112): how stored pixels must be turned to be displayed upright.
/// Raw values are the EXIF values 1–8.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Orientations 5–8 turn the image a quarter, so displayed width is stored height.
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The stored pixel shown at displayed position (x, y), for stored size `width` × `height`.
    func storedPosition(x: Int, y: Int, storedWidth width: Int, storedHeight height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }
}
