import XCTest
@testable import ImageFetchKit

final class OrientationTests: XCTestCase {
    func testEveryOrientationPutsEachStoredPixelWhereEXIFSays() {
        // 3×2, each pixel distinct: stored (x, y) holds the bytes [x, y, 7, 255].
        let (width, height) = (3, 2)
        let image = RGBAImage(width: width, height: height, pixels: (0..<height).flatMap { y in (0..<width).flatMap { x in [UInt8(x), UInt8(y), 7, 255] } })
        let expectations: [ImageOrientation: [[Int]]] = [
            // Displayed rows, each pixel named by its stored (x, y) as x * 10 + y.
            .up: [[0, 10, 20], [1, 11, 21]],
            .upMirrored: [[20, 10, 0], [21, 11, 1]],
            .down: [[21, 11, 1], [20, 10, 0]],
            .downMirrored: [[1, 11, 21], [0, 10, 20]],
            .leftMirrored: [[0, 1], [10, 11], [20, 21]],
            .right: [[1, 0], [11, 10], [21, 20]],
            .rightMirrored: [[21, 20], [11, 10], [1, 0]],
            .left: [[20, 21], [10, 11], [0, 1]],
        ]
        for orientation in ImageOrientation.allCases {
            let turned = image.oriented(by: orientation)
            let rows = (0..<turned.height).map { y in (0..<turned.width).map { x in turned.channels(x: x, y: y)[0] * 10 + turned.channels(x: x, y: y)[1] } }
            XCTAssertEqual(rows, expectations[orientation], "\(orientation)")
        }
    }

    func testRGBAImageAndDecodedImageTurnAlike() throws {
        let data = try Fixture.data("orientation-6.jpg")
        let upright = try DecoderRegistry.standard.decode(data)
        let stored = try RGBAImage.fixture("baseline.jpg")
        let turned = stored.oriented(by: .right)
        XCTAssertEqual([turned.width, turned.height], [upright.width, upright.height])
        XCTAssertEqual(turned.pixels, upright.pixels, "one rearrangement behind both")
    }
}
