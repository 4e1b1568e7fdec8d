import XCTest
@testable import ImageFetchKit

/// `--kernel`: the filters' shapes, and nearest's unfiltered picks.
final class ResampleKernelTests: XCTestCase {
    private func row(_ values: [UInt8]) -> RGBAImage {
        RGBAImage(width: values.count, height: 1, pixels: values.flatMap { [$0, $0, $0, 255] })
    }

    private func reds(_ image: RGBAImage) -> [UInt8] { stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] } }

    func testTheFiltersHaveTheirShapes() {
        XCTAssertEqual(ResampleKernel.cubic.weight(0), 1)
        XCTAssertEqual(ResampleKernel.cubic.weight(1), 0)
        XCTAssertEqual(ResampleKernel.cubic.weight(2), 0)
        XCTAssertEqual(ResampleKernel.cubic.weight(0.5), 0.5625, accuracy: 1e-9)  // Catmull-Rom
        XCTAssertEqual(ResampleKernel.linear.weight(0.25), 0.75, accuracy: 1e-9)
        XCTAssertEqual(ResampleKernel.lanczos3.weight(3), 0)
    }

    func testNearestPicksSourcePixelsUnmixed() {
        let source = row([10, 60, 110, 160])
        XCTAssertEqual(reds(Resampler.resize(source, width: 2, height: 1, kernel: .nearest)), [60, 160])
        XCTAssertEqual(reds(Resampler.resize(source, width: 8, height: 1, kernel: .nearest)), [10, 10, 60, 60, 110, 110, 160, 160])
    }

    func testLinearAndCubicBlendWhereLanczosRings() {
        // A step enlarged 4×: linear never leaves the range of its inputs; Lanczos overshoots.
        let step = row([0, 0, 255, 255])
        let linear = reds(Resampler.resize(step, width: 16, height: 1, kernel: .linear))
        XCTAssertEqual(linear.first, 0)
        XCTAssertEqual(linear.last, 255)
        XCTAssertTrue(linear.contains { $0 > 60 && $0 < 200 }, "\(linear)")
        XCTAssertEqual(linear, linear.sorted(), "monotonic: \(linear)")
        let cubic = reds(Resampler.resize(step, width: 16, height: 1, kernel: .cubic))
        XCTAssertNotEqual(cubic, linear)
    }

    func testLanczosTapsFollowTheClosedForm() {
        // Runs as the weights take them: from a fraction left of -support, every 1/stretch.
        for stretch in [1.0, 1.5, 2.37, 6, 17.3, 60] {
            for offset in [0.0, 0.25, 0.5, 0.913] {
                let first = -(3 * stretch).rounded(.up) - offset
                var taps = LanczosTaps(x: first / stretch, step: 1 / stretch)
                for k in 0..<Int(6 * stretch + 3) {
                    let x = (first + Double(k)) / stretch
                    XCTAssertEqual(taps.next(), LanczosWeights.lanczos(x), accuracy: 1e-9, "stretch \(stretch), x \(x)")
                }
            }
        }
    }
}
