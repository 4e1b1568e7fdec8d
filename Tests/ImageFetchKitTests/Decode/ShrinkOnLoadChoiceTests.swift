import XCTest
@testable import ImageFetchKit

/// The scale shrink-on-load picks: JPEG's smallest DCT factor, WebP's largest integer shrink, each
/// keeping both sides at least the minimum.
final class ShrinkOnLoadChoiceTests: XCTestCase {
    func testJPEGScaleIsTheSmallestWhoseRoundedUpSidesReachTheMinimum() {
        let cases: [(stored: (Int, Int), minimum: (width: Int, height: Int)?, denominator: Int)] = [
            ((4000, 3000), nil, 1),
            ((4000, 3000), (256, 256), 8),
            ((4000, 3000), (500, 375), 8),
            ((4000, 3000), (501, 375), 4),
            ((4000, 3000), (500, 376), 4),
            ((4000, 3000), (1000, 1), 4),
            ((4000, 3000), (1001, 1), 2),
            ((4000, 3000), (2000, 1500), 2),
            ((4000, 3000), (2001, 1500), 1),
            ((4000, 3000), (5000, 10), 1),
            ((4000, 3000), (0, 0), 8),
            ((203, 157), (26, 20), 8),  // ⌈203/8⌉ = 26, ⌈157/8⌉ = 20
            ((203, 157), (27, 20), 4),
            ((203, 157), (26, 21), 4),
            ((203, 157), (102, 79), 2),  // ⌈203/2⌉ = 102, ⌈157/2⌉ = 79
            ((1, 1), (1, 1), 8),
        ]
        for (stored, minimum, denominator) in cases {
            let scale = JPEGScale.smallest(storedWidth: stored.0, storedHeight: stored.1, minimum: minimum)
            XCTAssertEqual(scale.denominator, denominator, "\(stored) for at least \(String(describing: minimum))")
        }
        XCTAssertEqual([JPEGScale(denominator: 8).scaled(4000), JPEGScale(denominator: 8).scaled(203), JPEGScale(denominator: 4).scaled(157)], [500, 26, 40])
    }

    func testWebPShrinkIsTheLargestWhoseRoundedSidesReachTheMinimum() {
        let cases: [(size: (Int, Int), minimum: (width: Int, height: Int)?, factor: Int)] = [
            ((203, 157), nil, 1),
            ((203, 157), (100, 1), 2),  // 203/2 rounds to 102; 203/3 to 68
            ((203, 157), (26, 20), 7),  // 29×22; at 8, 203/8 = 25.4 rounds to 25
            ((203, 157), (1, 1), 314),  // 157/314 = 0.5 rounds up to 1
            ((203, 157), (300, 10), 1),
            ((4000, 3000), (256, 256), 11),  // 364×273; at 12, 3000/12 = 250
        ]
        for (size, minimum, factor) in cases {
            XCTAssertEqual(WebPShrink.largest(width: size.0, height: size.1, minimum: minimum).factor, factor,
                           "\(size) for at least \(String(describing: minimum))")
        }
    }

    /// For every size and minimum in a small range, the chosen shrink keeps the minimum and one
    /// more would not.
    func testWebPShrinkAgreesWithASearchOverEveryFactor() {
        for width in stride(from: 1, through: 61, by: 3) {
            for height in stride(from: 1, through: 47, by: 4) {
                for minimum in [(1, 1), (2, 3), (5, 5), (7, 2), (20, 20)] {
                    let fits = { (factor: Int) in
                        WebPShrink(factor: factor).scaled(width) >= minimum.0 && WebPShrink(factor: factor).scaled(height) >= minimum.1
                    }
                    let best = (1...(2 * max(width, height) + 2)).last(where: fits) ?? 1
                    XCTAssertEqual(WebPShrink.largest(width: width, height: height, minimum: minimum).factor, best,
                                   "\(width)×\(height) for at least \(minimum)")
                }
            }
        }
    }
}
