extension ImageOrientation {
    /// RGBA8 `pixels` of stored size `storedWidth` × `storedHeight` rearranged so they display
    /// upright: a new array of the same byte count, `displayedSize` wide and high. The one
    /// implementation behind `DecodedImage.turnedUpright()` and `RGBAImage.oriented(by:)`.
    func rearranging(_ pixels: [UInt8], storedWidth: Int, storedHeight: Int) -> [UInt8] {
        precondition(pixels.count == storedWidth * storedHeight * 4, "RGBA8 pixels must be width * height * 4 bytes")
        let (outWidth, outHeight) = displayedSize(storedWidth: storedWidth, storedHeight: storedHeight)
        // `storedPosition` is affine in (x, y), so three of its values give the stored index of
        // every displayed pixel as origin + x * stepX + y * stepY: no switch per pixel.
        func index(_ p: (x: Int, y: Int)) -> Int { p.y * storedWidth + p.x }
        let origin = index(storedPosition(x: 0, y: 0, storedWidth: storedWidth, storedHeight: storedHeight))
        let stepX = index(storedPosition(x: 1, y: 0, storedWidth: storedWidth, storedHeight: storedHeight)) - origin
        let stepY = index(storedPosition(x: 0, y: 1, storedWidth: storedWidth, storedHeight: storedHeight)) - origin
        return PixelBuffer.make(byteCount: pixels.count) { out in
            pixels.withUnsafeBytes { input in
                let input = input.bindMemory(to: UInt32.self)
                out.withMemoryRebound(to: UInt32.self) { output in
                    guard let source = input.baseAddress, var target = output.baseAddress else { return }
                    for y in 0..<outHeight {
                        var from = origin + y * stepY
                        for _ in 0..<outWidth {
                            target.pointee = source[from]
                            target += 1
                            from += stepX
                        }
                    }
                }
            }
        }
    }

    /// The size of a `storedWidth` × `storedHeight` image once turned upright.
    func displayedSize(storedWidth: Int, storedHeight: Int) -> (width: Int, height: Int) {
        swapsWidthAndHeight ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
    }
}
