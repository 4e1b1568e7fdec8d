extension DecodedImage {
    /// This image with `info.orientation` applied: stored pixels rearranged so they display
    /// upright. Returns self unchanged for `.up`, so upright images pay nothing.
    func turnedUpright() -> DecodedImage {
        let orientation = info.orientation
        guard orientation != .up else { return self }
        let (storedWidth, storedHeight) = (width, height)
        let (outWidth, outHeight) = orientation.swapsWidthAndHeight ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        let source = pixels
        let turned = PixelBuffer.make(byteCount: source.count) { out in
            source.withUnsafeBytes { input in
                let input = input.bindMemory(to: UInt32.self)
                out.withMemoryRebound(to: UInt32.self) { output in
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            let from = orientation.storedPosition(x: x, y: y, storedWidth: storedWidth, storedHeight: storedHeight)
                            output[y * outWidth + x] = input[from.y * storedWidth + from.x]
                        }
                    }
                }
            }
        }
        return DecodedImage(info: info, width: outWidth, height: outHeight, rgba: turned)
    }
}
