/// The canvas an animation reader composes frames on: RGBA8, straight alpha, rows without
/// padding, starting transparent black. The operations are the ones GIF and APNG disposal and
/// blending need, each on a rectangle already clipped to the canvas.
///
/// A value: `image` shares the pixels until the next change copies them, so a frame handed out
/// stays as it was.
struct RGBACanvas {
    /// A rectangle of the canvas, in pixels.
    struct Rect: Equatable {
        var x, y, width, height: Int

        /// This rectangle cut to a `width` × `height` canvas (empty when it lies outside).
        func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> Rect {
            let left = min(max(0, x), canvasWidth), top = min(max(0, y), canvasHeight)
            let right = min(max(left, x + width), canvasWidth), bottom = min(max(top, y + height), canvasHeight)
            return Rect(x: left, y: top, width: right - left, height: bottom - top)
        }
    }

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = PixelBuffer.make(byteCount: width * height * 4) { $0.initialize(repeating: 0) }
    }

    /// The canvas as it is now.
    var image: RGBAImage { RGBAImage(width: width, height: height, pixels: pixels) }

    /// Runs `body` on the pixels, for a reader that paints rows itself (such as from a palette).
    mutating func withPixels<Result>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        pixels.withUnsafeMutableBufferPointer { body($0) }
    }

    /// Makes `rect` transparent black.
    mutating func clear(_ rect: Rect) {
        let rowBytes = rect.width * 4
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in rect.y..<(rect.y + rect.height) {
                canvas.baseAddress.map { ($0 + (row * width + rect.x) * 4).initialize(repeating: 0, count: rowBytes) }
            }
        }
    }

    /// A copy of the pixels in `rect`, row after row, for `replace` to put back.
    func copy(_ rect: Rect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 4)
        for row in rect.y..<(rect.y + rect.height) {
            let start = (row * width + rect.x) * 4
            out += pixels[start..<(start + rect.width * 4)]
        }
        return out
    }

    /// Writes `source` (`rect.width` × `rect.height` RGBA8, as `copy` returns) over `rect`.
    mutating func replace(_ rect: Rect, with source: [UInt8]) {
        let rowBytes = rect.width * 4
        source.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { canvas in
                guard let from = source.baseAddress, let to = canvas.baseAddress else { return }
                for row in 0..<rect.height {
                    (to + ((rect.y + row) * width + rect.x) * 4).update(from: from + row * rowBytes, count: rowBytes)
                }
            }
        }
    }

    /// Composites `source` (`rect.width` × `rect.height` RGBA8, straight alpha) over `rect` with
    /// the PNG specification's "over" operator, rounding to nearest.
    mutating func blendOver(_ rect: Rect, with source: [UInt8]) {
        source.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { canvas in
                for row in 0..<rect.height {
                    var s = row * rect.width * 4
                    var d = ((rect.y + row) * width + rect.x) * 4
                    for _ in 0..<rect.width {
                        Self.blend(source, at: s, over: canvas, at: d)
                        s += 4
                        d += 4
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func blend(_ source: UnsafeBufferPointer<UInt8>, at s: Int, over canvas: UnsafeMutableBufferPointer<UInt8>, at d: Int) {
        let sourceAlpha = Int(source[s + 3])
        if sourceAlpha == 0 { return }
        if sourceAlpha == 255 {
            for c in 0..<4 { canvas[d + c] = source[s + c] }
            return
        }
        // Weights in units of 1/255²: the source's alpha, and what of the canvas shows through it.
        let sourceWeight = sourceAlpha * 255
        let canvasWeight = Int(canvas[d + 3]) * (255 - sourceAlpha)
        let total = sourceWeight + canvasWeight
        for c in 0..<3 {
            canvas[d + c] = UInt8((Int(source[s + c]) * sourceWeight + Int(canvas[d + c]) * canvasWeight + total / 2) / total)
        }
        canvas[d + 3] = UInt8((total + 127) / 255)
    }
}
