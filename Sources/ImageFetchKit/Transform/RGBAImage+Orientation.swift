extension RGBAImage {
    /// This image turned by `orientation` (an EXIF orientation of how these pixels are stored) so
    /// that it displays upright; 5–8 swap width and height. `.up` returns the image unchanged.
    func oriented(by orientation: ImageOrientation) -> RGBAImage {
        guard orientation != .up else { return self }
        let (outWidth, outHeight) = orientation.displayedSize(storedWidth: width, storedHeight: height)
        return RGBAImage(width: outWidth, height: outHeight, pixels: orientation.rearranging(pixels, storedWidth: width, storedHeight: height))
    }
}
