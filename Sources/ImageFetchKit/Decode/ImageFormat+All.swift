extension ImageFormat: CaseIterable {
    /// Every format imgfetch knows, each declared in its folder under Decode/: the decodable ones
    /// in the order messages list them, then those only recognised. Adding a format is its folder
    /// and its name here (Decode/README.md).
    public static let allCases: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif, .heic, .jxl, .tiff, .bmp, .ico, .svg, .qoi, .psd, .pdf]
}
