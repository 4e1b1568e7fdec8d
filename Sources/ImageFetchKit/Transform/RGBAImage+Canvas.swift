extension RGBAImage {
    /// This image placed at (`x`, `y`) on a `width` × `height` canvas of `background`: what
    /// `--fit contain` makes of an image fitted inside its box.
    func placed(onCanvasOf width: Int, height: Int, x: Int, y: Int, background: BackgroundColor) -> RGBAImage {
        let fill: [UInt8] = [background.red, background.green, background.blue, background.alpha]
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i..<(i + 4)] = fill[...] }
        for row in 0..<self.height where y + row >= 0 && y + row < height {
            let from = row * self.width * 4
            let to = ((y + row) * width + x) * 4
            pixels[to..<(to + self.width * 4)] = self.pixels[from..<(from + self.width * 4)]
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
