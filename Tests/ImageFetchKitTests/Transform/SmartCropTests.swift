import XCTest
@testable import ImageFetchKit

/// `--gravity attention` and `entropy` on images whose interesting half is known.
final class SmartCropTests: XCTestCase {
    /// 200×100: a detailed half (a deterministic pseudo-random texture) beside a flat grey half,
    /// the detail on the left or the right.
    private func halfDetailed(detailOnLeft: Bool, colourful: Bool = false) -> RGBAImage {
        var pixels = [UInt8](repeating: 128, count: 200 * 100 * 4)
        var seed: UInt32 = 12345
        for y in 0..<100 {
            for x in 0..<200 {
                let i = (y * 200 + x) * 4
                pixels[i + 3] = 255
                guard (x < 100) == detailOnLeft else { continue }
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let value = UInt8(truncatingIfNeeded: seed >> 24)
                pixels[i] = colourful ? 255 : value
                pixels[i + 1] = colourful ? value / 4 : value
                pixels[i + 2] = colourful ? value / 4 : value
            }
        }
        return RGBAImage(width: 200, height: 100, pixels: pixels)
    }

    func testEntropyKeepsTheDetailedHalf() {
        XCTAssertEqual(SmartCrop.offset(in: halfDetailed(detailOnLeft: true), length: 100, alongX: true, rule: .entropy), 0)
        XCTAssertEqual(SmartCrop.offset(in: halfDetailed(detailOnLeft: false), length: 100, alongX: true, rule: .entropy), 100)
    }

    func testAttentionKeepsTheBusyColourfulHalf() {
        XCTAssertEqual(SmartCrop.offset(in: halfDetailed(detailOnLeft: true, colourful: true), length: 100, alongX: true, rule: .attention), 0)
        XCTAssertEqual(SmartCrop.offset(in: halfDetailed(detailOnLeft: false, colourful: true), length: 100, alongX: true, rule: .attention), 100)
    }

    func testAlongYAndOtherRules() {
        // The image turned on its side: the detail is in the top or bottom half.
        let wide = halfDetailed(detailOnLeft: false)
        var tall = [UInt8](repeating: 0, count: wide.pixels.count)
        for y in 0..<100 { for x in 0..<200 { for c in 0..<4 { tall[(x * 100 + y) * 4 + c] = wide.pixels[(y * 200 + x) * 4 + c] } } }
        let image = RGBAImage(width: 100, height: 200, pixels: tall)
        XCTAssertEqual(SmartCrop.offset(in: image, length: 100, alongX: false, rule: .entropy), 100)
        XCTAssertEqual(SmartCrop.offset(in: image, length: 100, alongX: false, rule: .attention), 100)
        XCTAssertEqual(SmartCrop.offset(in: image, length: 100, alongX: false, rule: .centre), 50)
        XCTAssertEqual(SmartCrop.offset(in: image, length: 200, alongX: false, rule: .entropy), 0)
    }
}
