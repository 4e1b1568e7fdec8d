import XCTest
@testable import ImageFetchKit

final class TransformSpecTests: XCTestCase {
    private func parse(
        _ resize: String? = nil, fit: String? = nil, gravity: String? = nil, background: String? = nil, kernel: String? = nil,
        upscale: Bool = false, format: String? = nil, quality: Int? = nil, lossless: Bool = false, progressive: Bool = false,
        firstFrame: Bool = false, maxPixels: Int = 100_000_000
    ) throws -> TransformSpec? {
        try TransformSpec.parse(
            resize: resize, fit: fit, gravity: gravity, background: background, kernel: kernel, upscale: upscale, format: format,
            quality: quality, lossless: lossless, progressive: progressive, firstFrame: firstFrame, maxPixels: maxPixels)
    }

    func testSizesInEveryFormParse() throws {
        XCTAssertEqual(try TransformSpec.parseSize("256x128").width, 256)
        XCTAssertEqual(try TransformSpec.parseSize("256x128").height, 128)
        XCTAssertEqual(try TransformSpec.parseSize("256X128").height, 128)
        XCTAssertEqual(try TransformSpec.parseSize("300").width, 300)
        XCTAssertNil(try TransformSpec.parseSize("300").height)
        XCTAssertEqual(try TransformSpec.parseSize("300x").width, 300)
        XCTAssertNil(try TransformSpec.parseSize("300x").height)
        XCTAssertNil(try TransformSpec.parseSize("x200").width)
        XCTAssertEqual(try TransformSpec.parseSize("x200").height, 200)
    }

    func testBadSizesAreRefusedNamingTheOption() {
        for text in ["0x0", "0x10", "10x0", "abc", "", "x", "-5x5", "5x-5", "1x2x3", "256 x256", "+5", "1e3", "99999999", "65501x1", "12.5x3"] {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertEqual(error as? TransformSpec.ParseError, .size(text))
                XCTAssertTrue(String(describing: error).hasPrefix("--resize '\(text)'"), String(describing: error))
            }
        }
    }

    func testABoxOverThePixelLimitIsRefused() {
        XCTAssertThrowsError(try parse("20000x20000")) { error in
            XCTAssertEqual(error as? TransformSpec.ParseError, .tooLarge(width: 20000, height: 20000, limit: 100_000_000))
        }
        XCTAssertThrowsError(try parse("101x100", maxPixels: 10_000))
        XCTAssertNoThrow(try parse("100x100", maxPixels: 10_000))
    }

    func testFitFormatAndQualityAreChecked() {
        XCTAssertThrowsError(try parse("10", fit: "sideways")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .fit("sideways")) }
        XCTAssertThrowsError(try parse(format: "gif")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .format("gif")) }
        XCTAssertThrowsError(try parse(quality: 0)) { XCTAssertEqual($0 as? TransformSpec.ParseError, .quality(0)) }
        XCTAssertThrowsError(try parse(quality: 101)) { XCTAssertEqual($0 as? TransformSpec.ParseError, .quality(101)) }
        XCTAssertEqual(try parse(format: "JPG")?.format, .jpeg)
        XCTAssertEqual(try parse(format: "WebP")?.format, .webp)
        XCTAssertEqual(try parse("10x10", fit: "COVER")?.fit, .cover)
    }

    func testNoTransformFlagMeansNoSpec() throws {
        XCTAssertNil(try parse())
    }

    func testTheNormalFormMakesEquivalentSpecsOne() throws {
        XCTAssertEqual(try parse("256x256")?.description, "256x256 inside")
        XCTAssertEqual(try parse("256x256", fit: "inside")?.description, "256x256 inside")
        XCTAssertEqual(try parse("256X256")?.description, "256x256 inside")
        XCTAssertEqual(try parse("256", fit: "inside")?.description, "256x")
        XCTAssertEqual(try parse("256x")?.description, "256x")
        XCTAssertEqual(try parse("x90", upscale: true)?.description, "x90 upscale")
        // A format's default quality is written out, so naming it changes nothing.
        XCTAssertEqual(try parse("64x64", fit: "cover", format: "webp")?.description, "64x64 cover webp q80")
        XCTAssertEqual(try parse("64x64", fit: "cover", format: "webp", quality: 80)?.description, "64x64 cover webp q80")
        XCTAssertEqual(try parse(format: "png")?.description, "png")
        // AVIF's default quality is sharp's, 50.
        XCTAssertEqual(try parse(format: "AVIF")?.description, "avif q50")
        XCTAssertEqual(try parse("64x", format: "avif", quality: 50)?.description, "64x avif q50")
        XCTAssertEqual(try parse("10x20", fit: "fill", quality: 55, firstFrame: true)?.description, "10x20 fill q55 first-frame")
    }

    func testGravityNamesWhereCoverCrops() throws {
        XCTAssertEqual(try parse("300x200", fit: "cover", gravity: "north")?.description, "300x200 cover north")
        XCTAssertEqual(try parse("300x200", fit: "cover", gravity: "Entropy")?.gravity, .entropy)
        XCTAssertEqual(try parse("300x200", fit: "cover", gravity: "center")?.description, "300x200 cover")
        XCTAssertEqual(try parse("300x200", fit: "cover", gravity: "centre")?.description, try parse("300x200", fit: "cover")?.description)
        XCTAssertThrowsError(try parse("300x200", fit: "cover", gravity: "up")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .gravity("up")) }
        XCTAssertThrowsError(try parse("300x200", gravity: "north")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .gravityNeedsCover) }
        XCTAssertThrowsError(try parse(gravity: "north")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .gravityNeedsCover) }
    }

    func testKernelLosslessAndProgressive() throws {
        XCTAssertEqual(try parse("64x", kernel: "Nearest")?.description, "64x kernel nearest")
        XCTAssertEqual(try parse("64x", kernel: "lanczos3")?.description, "64x")
        XCTAssertEqual(try parse(format: "webp", lossless: true)?.description, "webp q80 lossless")
        XCTAssertEqual(try parse("64x", progressive: true)?.description, "64x progressive")
        XCTAssertThrowsError(try parse("64x", kernel: "box")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .kernel("box")) }
        XCTAssertThrowsError(try parse(kernel: "cubic")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .needsResize(option: "--kernel")) }
        XCTAssertThrowsError(try parse(format: "jpeg", lossless: true)) {
            XCTAssertEqual($0 as? TransformSpec.ParseError, .wrongFormat(option: "--lossless", format: .jpeg))
        }
        XCTAssertThrowsError(try parse(format: "png", progressive: true)) {
            XCTAssertEqual($0 as? TransformSpec.ParseError, .wrongFormat(option: "--progressive", format: .png))
        }
    }

    func testContainOutsideAndBackground() throws {
        XCTAssertEqual(try parse("200x200", fit: "contain")?.description, "200x200 contain")
        XCTAssertEqual(try parse("200x200", fit: "contain", background: "Red")?.description, "200x200 contain bg #ff0000ff")
        XCTAssertEqual(try parse("200x200", fit: "outside")?.description, "200x200 outside")
        XCTAssertEqual(try parse(background: "#000000", format: "jpeg")?.description, "jpeg q80 bg #000000ff")
        XCTAssertThrowsError(try parse("200", fit: "contain")) { XCTAssertEqual($0 as? TransformSpec.ParseError, .needsBothSides(fit: .contain)) }
        XCTAssertThrowsError(try parse("200x200", fit: "contain", background: "reddish")) {
            XCTAssertEqual($0 as? TransformSpec.ParseError, .background("reddish"))
        }
        for (fit, format) in [(nil, nil), ("cover", "png"), (nil, "webp")] as [(String?, String?)] {
            XCTAssertThrowsError(try parse("200x200", fit: fit, background: "red", format: format)) {
                XCTAssertEqual($0 as? TransformSpec.ParseError, .backgroundWithoutEffect)
            }
        }
    }

    /// Options that would change nothing for any image are usage errors naming the option.
    func testOptionsThatChangeNothingAreRefused() {
        let cases: [(String?, String?, Bool, String?, Int?, TransformSpec.ParseError, String)] = [
            (nil, "cover", false, nil, nil, .needsResize(option: "--fit"), "--fit changes nothing without --resize"),
            (nil, "inside", false, "webp", nil, .needsResize(option: "--fit"), "--fit changes nothing without --resize"),
            (nil, nil, true, nil, nil, .needsResize(option: "--upscale"), "--upscale changes nothing without --resize"),
            (nil, nil, true, "jpeg", nil, .needsResize(option: "--upscale"), "--upscale changes nothing without --resize"),
            ("256", "cover", false, nil, nil, .needsBothSides(fit: .cover), "--fit cover needs both sides"),
            ("x256", "fill", false, nil, nil, .needsBothSides(fit: .fill), "--fit fill needs both sides"),
            ("256x256", nil, false, "png", 70, .qualityForPNG, "--quality changes nothing with --format png"),
        ]
        for (resize, fit, upscale, format, quality, expected, message) in cases {
            XCTAssertThrowsError(try parse(resize, fit: fit, upscale: upscale, format: format, quality: quality)) { error in
                XCTAssertEqual(error as? TransformSpec.ParseError, expected)
                XCTAssertTrue(String(describing: error).hasPrefix(message), String(describing: error))
            }
        }
    }

    func testOutputFormatFollowsTheSourceUnlessOneIsAsked() {
        let keep = TransformSpec(width: 10)
        XCTAssertEqual(keep.outputFormat(for: .jpeg, animated: false), .jpeg)
        XCTAssertEqual(keep.outputFormat(for: .png, animated: false), .png)
        XCTAssertEqual(keep.outputFormat(for: .webp, animated: false), .webp)
        XCTAssertEqual(keep.outputFormat(for: .gif, animated: false), .png)
        XCTAssertEqual(keep.outputFormat(for: .avif, animated: false), .png)
        XCTAssertEqual(keep.outputFormat(for: .gif, animated: true), .webp)
        XCTAssertEqual(keep.outputFormat(for: .png, animated: true), .webp)
        XCTAssertTrue(keep.keepsAnimation(of: .gif, animated: true))
        let first = TransformSpec(width: 10, firstFrame: true)
        XCTAssertEqual(first.outputFormat(for: .gif, animated: true), .png)
        XCTAssertFalse(first.keepsAnimation(of: .gif, animated: true))
        let jpeg = TransformSpec(format: .jpeg)
        XCTAssertEqual(jpeg.outputFormat(for: .gif, animated: true), .jpeg)
        XCTAssertFalse(jpeg.keepsAnimation(of: .gif, animated: true))
    }

    func testVariantKeysSitAfterTheirOriginal() throws {
        let original = CacheKey("https://example.com/a.jpg")
        let spec = try XCTUnwrap(try parse("256x256"))
        let variant = original.variant(spec)
        XCTAssertEqual(variant.rawValue, "https://example.com/a.jpg 256x256 inside")
        XCTAssertEqual(variant.variantSpec, "256x256 inside")
        XCTAssertEqual(variant.originalKey, original)
        XCTAssertNil(original.variantSpec)
        XCTAssertEqual(original.originalKey, original)
        XCTAssertNotEqual(variant.hash, original.hash)
        let (lower, upper) = original.variantRange
        XCTAssertTrue(lower < variant.rawValue && variant.rawValue < upper)
        // Another URL that merely starts with this one is outside the range.
        for other in ["https://example.com/a.jpg2", "https://example.com/a.jpg?x", "https://example.com/a.jpg/b"] {
            XCTAssertFalse(lower < other && other < upper, other)
        }
    }
}
