import XCTest
@testable import ImageFetchKit

final class TransformGeometryTests: XCTestCase {
    private func geometry(
        _ resize: String, fit: TransformSpec.Fit = .inside, gravity: TransformSpec.Gravity = .centre, upscale: Bool = false, _ w: Int, _ h: Int
    ) throws -> TransformGeometry {
        let size = try TransformSpec.parseSize(resize)
        let spec = TransformSpec(width: size.width, height: size.height, fit: fit, gravity: gravity, upscale: upscale)
        return TransformGeometry(spec: spec, sourceWidth: w, sourceHeight: h)
    }

    private func size(_ g: TransformGeometry) -> [Int] { [g.width, g.height] }

    func testInsideKeepsTheAspectRatioWithinTheBox() throws {
        XCTAssertEqual(size(try geometry("256x256", 4000, 3000)), [256, 192])
        XCTAssertEqual(size(try geometry("256x256", 3000, 4000)), [192, 256])
        XCTAssertEqual(size(try geometry("256x", 4000, 3000)), [256, 192])
        XCTAssertEqual(size(try geometry("x100", 4000, 3000)), [133, 100])
        XCTAssertEqual(size(try geometry("100x1000", 4000, 3000)), [100, 75])
        XCTAssertEqual(size(try geometry("256x256", 4000, 1)), [256, 1])
        XCTAssertTrue(try geometry("256x256", 4000, 3000).window == .init(x: 0, y: 0, width: 4000, height: 3000))
    }

    func testNothingIsEnlargedWithoutUpscale() throws {
        XCTAssertEqual(size(try geometry("256x256", 100, 50)), [100, 50])
        XCTAssertTrue(try geometry("256x256", 100, 50).keepsSize)
        XCTAssertEqual(size(try geometry("256x256", upscale: true, 100, 50)), [256, 128])
        XCTAssertEqual(size(try geometry("256x256", fit: .fill, 100, 50)), [100, 50])
        XCTAssertEqual(size(try geometry("256x256", fit: .fill, upscale: true, 100, 50)), [256, 256])
        XCTAssertEqual(size(try geometry("80x256", fit: .fill, 100, 50)), [80, 50])
    }

    func testCoverFillsTheBoxAndCropsTheCentre() throws {
        let wide = try geometry("100x100", fit: .cover, 400, 200)
        XCTAssertEqual(size(wide), [100, 100])
        XCTAssertEqual(wide.window, .init(x: 100, y: 0, width: 200, height: 200))
        let tall = try geometry("100x50", fit: .cover, 300, 900)
        XCTAssertEqual(size(tall), [100, 50])
        XCTAssertEqual(tall.window, .init(x: 0, y: 375, width: 300, height: 150))
    }

    func testCoverWithoutUpscaleCropsEachSideToTheImage() throws {
        // As vipsthumbnail -s '256x256>' --smartcrop centre and sharp's withoutEnlargement: a side
        // the image cannot fill at its own size is the image's side, the other is cropped to the box.
        let g = try geometry("256x256", fit: .cover, 200, 100)
        XCTAssertEqual(size(g), [200, 100])
        XCTAssertTrue(g.keepsSize)
        let strip = try geometry("256x256", fit: .cover, 1, 400)
        XCTAssertEqual(size(strip), [1, 256])
        XCTAssertEqual(strip.window, .init(x: 0, y: 72, width: 1, height: 256))
        let wide = try geometry("256x50", fit: .cover, 400, 100)
        XCTAssertEqual(size(wide), [256, 50])
        XCTAssertEqual(wide.window, .init(x: 0, y: 10.9375, width: 400, height: 78.125))
        let up = try geometry("256x256", fit: .cover, upscale: true, 200, 100)
        XCTAssertEqual(size(up), [256, 256])
        XCTAssertEqual(up.window, .init(x: 50, y: 0, width: 100, height: 100))
    }

    func testTheMinimumDecodeCoversTheWindowAtTwiceTheOutputResolution() throws {
        // Twice the output, as libvips shrinks on load, so Lanczos does the last factor of two.
        let inside = try geometry("256x256", 4000, 3000)
        XCTAssertTrue(inside.minimumStoredDecodeSize(sourceWidth: 4000, sourceHeight: 3000, orientation: .up) == (512, 384))
        // An exact 2× reduction decodes whole: no DCT scaling straight to the output size.
        let half = try geometry("256x", 512, 384)
        XCTAssertTrue(half.minimumStoredDecodeSize(sourceWidth: 512, sourceHeight: 384, orientation: .up) == (512, 384))
        // Stored on its side (EXIF 6): displayed 3000×4000, stored 4000×3000.
        let turned = try geometry("256x256", 3000, 4000)
        XCTAssertEqual(size(turned), [192, 256])
        XCTAssertTrue(turned.minimumStoredDecodeSize(sourceWidth: 3000, sourceHeight: 4000, orientation: .right) == (512, 384))
        XCTAssertTrue(turned.storedSize(orientation: .right) == (256, 192))
        // Cover keeps the crop's resolution: the 200×200 window makes 100×100, so twice that is the whole image.
        let cover = try geometry("100x100", fit: .cover, 400, 200)
        XCTAssertTrue(cover.minimumStoredDecodeSize(sourceWidth: 400, sourceHeight: 200, orientation: .up) == (400, 200))
        let smallCover = try geometry("50x50", fit: .cover, 800, 400)  // the 400×400 window to 50×50
        XCTAssertTrue(smallCover.minimumStoredDecodeSize(sourceWidth: 800, sourceHeight: 400, orientation: .up) == (200, 100))
    }

    func testTheWindowFollowsTheDecodeIntoStoredCoordinates() throws {
        let cover = try geometry("100x100", fit: .cover, 200, 400)  // displayed 200×400
        XCTAssertEqual(cover.window, .init(x: 0, y: 100, width: 200, height: 200))
        // Stored 400×200 (a quarter turn), decoded at 1/2: 200×100.
        let stored = cover.storedWindow(sourceWidth: 200, sourceHeight: 400, orientation: .left, decodedWidth: 200, decodedHeight: 100)
        XCTAssertEqual(stored, .init(x: 50, y: 0, width: 100, height: 100))
    }

    func testCompassGravityPlacesTheCoverCrop() throws {
        XCTAssertEqual(try geometry("100x50", fit: .cover, gravity: .north, 300, 900).window, .init(x: 0, y: 0, width: 300, height: 150))
        XCTAssertEqual(try geometry("100x50", fit: .cover, gravity: .south, 300, 900).window, .init(x: 0, y: 750, width: 300, height: 150))
        XCTAssertEqual(try geometry("100x100", fit: .cover, gravity: .west, 400, 200).window, .init(x: 0, y: 0, width: 200, height: 200))
        XCTAssertEqual(try geometry("100x100", fit: .cover, gravity: .southeast, 400, 200).window, .init(x: 200, y: 0, width: 200, height: 200))
        // Attention and entropy start centred; SmartCrop moves them once the pixels are decoded.
        XCTAssertEqual(try geometry("100x100", fit: .cover, gravity: .entropy, 400, 200).window, .init(x: 100, y: 0, width: 200, height: 200))
    }

    func testAnOffCentreWindowIsFoundWhereItIsStored() throws {
        // Displayed 200×400, stored 400×200 turned by EXIF 8 (left): the displayed top is the stored right.
        let north = try geometry("100x100", fit: .cover, gravity: .north, 200, 400)
        XCTAssertEqual(north.window, .init(x: 0, y: 0, width: 200, height: 200))
        XCTAssertEqual(north.storedWindow(sourceWidth: 200, sourceHeight: 400, orientation: .left, decodedWidth: 200, decodedHeight: 100),
                       .init(x: 100, y: 0, width: 100, height: 100))
        // EXIF 6 (right): the displayed top is the stored left.
        XCTAssertEqual(north.storedWindow(sourceWidth: 200, sourceHeight: 400, orientation: .right, decodedWidth: 400, decodedHeight: 200),
                       .init(x: 0, y: 0, width: 200, height: 200))
        // Upside down: the displayed top is the stored bottom.
        let tall = try geometry("100x50", fit: .cover, gravity: .north, 300, 900)
        XCTAssertEqual(tall.storedWindow(sourceWidth: 300, sourceHeight: 900, orientation: .down, decodedWidth: 300, decodedHeight: 900),
                       .init(x: 0, y: 750, width: 300, height: 150))
    }

    func testContainLetterboxesAndOutsideCoversWithoutCropping() throws {
        let contain = try geometry("100x100", fit: .contain, 400, 200)
        XCTAssertEqual(size(contain), [100, 50])
        XCTAssertEqual(contain.canvas, .init(width: 100, height: 100, x: 0, y: 25))
        XCTAssertTrue(contain.outputSize == (100, 100))
        // Without --upscale the image keeps its size, centred in the box.
        let small = try geometry("256x256", fit: .contain, 64, 48)
        XCTAssertEqual(size(small), [64, 48])
        XCTAssertEqual(small.canvas, .init(width: 256, height: 256, x: 96, y: 104))
        let outside = try geometry("100x100", fit: .outside, 400, 200)
        XCTAssertEqual(size(outside), [200, 100])
        XCTAssertNil(outside.canvas)
        XCTAssertEqual(outside.window, .init(x: 0, y: 0, width: 400, height: 200))
        XCTAssertEqual(size(try geometry("256x256", fit: .outside, 64, 48)), [64, 48])
        XCTAssertEqual(size(try geometry("256x256", fit: .outside, upscale: true, 64, 48)), [341, 256])
    }
}
