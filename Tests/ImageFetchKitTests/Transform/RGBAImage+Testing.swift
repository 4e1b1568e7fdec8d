import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

extension Pillow {
    /// Writes `image` as raw RGBA8 into `directory` for a script to read with
    /// `Image.frombytes('RGBA', (width, height), data)`; returns the path.
    static func rawFile(_ image: RGBAImage, in directory: TemporaryDirectory, name: String = "input.rgba") throws -> String {
        try directory.write(Data(image.pixels), to: name).path
    }
}

extension RGBAImage {
    /// The registry's decoding of fixture `name`, as the transform's input type.
    static func fixture(_ name: String) throws -> RGBAImage {
        let decoded = try DecoderRegistry.standard.decode(try Fixture.data(name))
        return RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
    }

    /// The pixel at (x, y) as [R, G, B, A].
    func channels(x: Int, y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return (0..<4).map { Int(pixels[i + $0]) }
    }
}

/// Peak signal-to-noise ratio in dB between two RGBA images of one size, over colour
/// premultiplied by alpha (where a pixel is transparent its colour is meaningless) and alpha.
func peakSignalToNoise(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var squares = 0.0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        let alphaA = Double(a.pixels[i + 3]), alphaB = Double(b.pixels[i + 3])
        for c in 0..<3 {
            let d = Double(a.pixels[i + c]) * alphaA / 255 - Double(b.pixels[i + c]) * alphaB / 255
            squares += d * d
        }
        squares += (alphaA - alphaB) * (alphaA - alphaB)
    }
    let meanSquare = squares / Double(a.pixels.count)
    return meanSquare == 0 ? .infinity : 10 * log10(255 * 255 / meanSquare)
}
