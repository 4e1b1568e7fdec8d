import XCTest
@testable import ImageFetchKit

final class TransformGeometryTests: XCTestCase {
    private func geometry(_ resize: String, fit: TransformSpec.Fit = .inside, upscale: Bool = false, _ w: Int, _ h: Int) throws -> TransformGeometry {
        let size = try TransformSpec.parseSize(resize)
        return TransformGeometry(spec: TransformSpec(width: size.width, height: size.height, fit: fit, upscale: upscale), sourceWidth: w, sourceHeight: h)
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

    func testCoverWithoutUpscaleShrinksTheBoxToWhatTheImageCanFill() throws {
        // A 200×100 image cannot fill 256×256 at its own size: the largest square it fills is 100×100.
        let g = try geometry("256x256", fit: .cover, 200, 100)
        XCTAssertEqual(size(g), [100, 100])
        XCTAssertEqual(g.window, .init(x: 50, y: 0, width: 100, height: 100))
        let up = try geometry("256x256", fit: .cover, upscale: true, 200, 100)
        XCTAssertEqual(size(up), [256, 256])
        XCTAssertEqual(up.window, .init(x: 50, y: 0, width: 100, height: 100))
    }

    func testTheMinimumDecodeCoversTheWindowAtOutputResolution() throws {
        let inside = try geometry("256x256", 4000, 3000)
        XCTAssertTrue(inside.minimumStoredDecodeSize(sourceWidth: 4000, sourceHeight: 3000, orientation: .up) == (256, 192))
        // Stored on its side (EXIF 6): displayed 3000×4000, stored 4000×3000.
        let turned = try geometry("256x256", 3000, 4000)
        XCTAssertEqual(size(turned), [192, 256])
        XCTAssertTrue(turned.minimumStoredDecodeSize(sourceWidth: 3000, sourceHeight: 4000, orientation: .right) == (256, 192))
        XCTAssertTrue(turned.storedSize(orientation: .right) == (256, 192))
        // Cover keeps the crop's resolution: the whole image must be decoded at 1/2 of 400 wide.
        let cover = try geometry("100x100", fit: .cover, 400, 200)
        XCTAssertTrue(cover.minimumStoredDecodeSize(sourceWidth: 400, sourceHeight: 200, orientation: .up) == (200, 100))
    }

    func testTheWindowFollowsTheDecodeIntoStoredCoordinates() throws {
        let cover = try geometry("100x100", fit: .cover, 200, 400)  // displayed 200×400
        XCTAssertEqual(cover.window, .init(x: 0, y: 100, width: 200, height: 200))
        // Stored 400×200 (a quarter turn), decoded at 1/2: 200×100.
        let stored = cover.storedWindow(sourceWidth: 200, sourceHeight: 400, orientation: .left, decodedWidth: 200, decodedHeight: 100)
        XCTAssertEqual(stored, .init(x: 50, y: 0, width: 100, height: 100))
    }
}
