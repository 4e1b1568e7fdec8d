import TestSupport
import XCTest
@testable import ImageFetchKit

/// Seeded random damage to the files imgfetch parses itself (BMP, ICO, and the APNG frame
/// chunks it composes): every damaged file either decodes to exactly its probed pixels or is
/// refused with a DecodeError of a kind a bad file deserves. A crash, a trap on an out-of-range
/// read or an overflow fails the run; the seed brings a failure back.
final class OwnFormatMutationTests: XCTestCase {
    private let registry = DecoderRegistry.standard
    private static let names = ["bmp24.bmp", "bmp4.bmp", "rle8.bmp", "alpha.bmp", "os2.bmp", "icons.ico", "png256.ico", "palette.ico", "animated.png"]

    func testDamagedFilesDecodeOrAreRefusedCleanly() throws {
        var random = SplitMix(seed: 13)
        var refused = 0, decoded = 0
        for name in Self.names {
            let original = [UInt8](try Fixture.data(name))
            for _ in 0..<150 {
                var bytes = original
                switch Int.random(in: 0..<3, using: &random) {
                case 0:  // a few bytes anywhere, header bytes more often
                    for _ in 0..<Int.random(in: 1...4, using: &random) {
                        let limit = Bool.random(using: &random) ? min(bytes.count, 140) : bytes.count
                        bytes[Int.random(in: 0..<limit, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                case 1:  // cut short
                    bytes.removeLast(Int.random(in: 1..<(bytes.count - 30), using: &random))
                default:  // one 32-bit field in the headers set to an extreme
                    let at = Int.random(in: 2..<min(bytes.count - 4, 120), using: &random)
                    let extreme = [0x0000_0000, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0x0001_0000].randomElement(using: &random)!
                    for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: extreme >> (8 * i)) }
                }
                let data = Data(bytes)
                do {
                    let image = try registry.decode(data, limits: DecodeLimits(maxPixels: 1 << 20))
                    XCTAssertEqual(image.pixels.count, image.width * image.height * 4, name)
                    decoded += 1
                } catch {
                    switch error {
                    case .truncated, .corrupt, .zeroPixels, .tooManyPixels, .tooManyAnimationPixels, .unsupportedFormat: refused += 1
                    case .libraryUnavailable: XCTFail("\(name): \(error)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(decoded, 0)
    }
}
