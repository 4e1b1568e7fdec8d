extension DecodedImage {
    /// This image with `info.orientation` applied: stored pixels rearranged so they display
    /// upright. Returns self unchanged for `.up`, so upright images pay nothing.
    func turnedUpright() -> DecodedImage {
        let orientation = info.orientation
        guard orientation != .up else { return self }
        let (outWidth, outHeight) = orientation.displayedSize(storedWidth: width, storedHeight: height)
        let turned = orientation.rearranging(pixels, storedWidth: width, storedHeight: height)
        return DecodedImage(info: info, width: outWidth, height: outHeight, rgba: turned)
    }
}
