import Glibc

/// Where a `cover` crop goes for `--gravity attention` and `entropy`: libvips' `interesting`
/// rules, along the one axis a cover crop cuts (the other side of the window is the image's).
///
/// - entropy: like libvips', slices are cut from whichever end has the less entropy (of the
///   luminance histogram) until the window is left; each slice is an eighth of what remains to
///   cut, at least a pixel.
/// - attention: like libvips', each pixel scores its edges (absolute Laplacian of luminance), its
///   saturation and whether it looks like skin; the window goes where the score it holds is
///   highest (libvips centres it on the peak of the blurred score; along one axis the sum is the
///   same idea without the blur's width to choose).
///
/// Works on the decoded (often shrunk-on-load) image before resampling, so it reads few pixels.
enum SmartCrop {
    /// The offset, in `image` pixels, of a window `length` pixels long along x (`alongX`) or y,
    /// under `rule` (`.attention` or `.entropy`; any other gravity gives the centre).
    static func offset(in image: RGBAImage, length: Int, alongX: Bool, rule: TransformSpec.Gravity) -> Int {
        let total = alongX ? image.width : image.height
        guard length < total else { return 0 }
        switch rule {
        case .entropy: return entropyOffset(image, length: length, alongX: alongX)
        case .attention: return attentionOffset(image, length: length, alongX: alongX)
        default: return (total - length) / 2
        }
    }

    /// Luminance (Rec. 601, 0–255) of the pixel at `index`.
    private static func luma(_ p: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        (Int(p[index]) * 299 + Int(p[index + 1]) * 587 + Int(p[index + 2]) * 114) / 1000
    }

    private static func entropyOffset(_ image: RGBAImage, length: Int, alongX: Bool) -> Int {
        let total = alongX ? image.width : image.height
        let across = alongX ? image.height : image.width
        // One luminance histogram a line (a column when sliding along x), summed per slice.
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: total)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    histograms[alongX ? x : y][luma(p, (y * image.width + x) * 4)] += 1
                }
            }
        }
        func entropy(_ lines: Range<Int>) -> Double {
            var counts = [Int](repeating: 0, count: 256)
            for line in lines { for value in 0..<256 { counts[value] += histograms[line][value] } }
            let n = Double(lines.count * across)
            var entropy = 0.0
            for count in counts where count > 0 {
                let p = Double(count) / n
                entropy -= p * log2(p)
            }
            return entropy
        }
        var (start, end) = (0, total)
        while end - start > length {
            let slice = max(1, (end - start - length) / 8)
            if entropy(start..<(start + slice)) < entropy((end - slice)..<end) { start += slice } else { end -= slice }
        }
        return start
    }

    private static func attentionOffset(_ image: RGBAImage, length: Int, alongX: Bool) -> Int {
        let (width, height) = (image.width, image.height)
        var lineScores = [Double](repeating: 0, count: alongX ? width : height)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let (r, g, b) = (Int(p[index]), Int(p[index + 1]), Int(p[index + 2]))
                    let l = luma(p, index)
                    var edge = 4 * l
                    edge -= x > 0 ? luma(p, index - 4) : l
                    edge -= x + 1 < width ? luma(p, index + 4) : l
                    edge -= y > 0 ? luma(p, index - width * 4) : l
                    edge -= y + 1 < height ? luma(p, index + width * 4) : l
                    let (high, low) = (max(r, g, b), min(r, g, b))
                    let saturation = high > 0 ? Double(high - low) / Double(high) : 0
                    // A common RGB rule for skin under daylight (Kovač et al.).
                    let skin = r > 95 && g > 40 && b > 20 && high - low > 15 && abs(r - g) > 15 && r > g && r > b
                    let score = Double(abs(edge)) + (l > 20 && saturation > 0.25 ? 64 * saturation : 0) + (skin ? 96 : 0)
                    lineScores[alongX ? x : y] += score
                }
            }
        }
        var best = (offset: 0, score: -1.0)
        var sum = lineScores[0..<length].reduce(0, +)
        for offset in 0...(lineScores.count - length) {
            if offset > 0 { sum += lineScores[offset + length - 1] - lineScores[offset - 1] }
            if sum > best.score { best = (offset, sum) }
        }
        return best.offset
    }
}
