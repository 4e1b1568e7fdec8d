import Foundation
import ImageFetchKit
import TestSupport
import XCTest

/// `--resize`, `--fit`, `--upscale`, `--format`, `--quality`, `--first-frame`: variants made by the
/// real binary from images the test server serves, measured against Pillow.
final class TransformCommandTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        for name in ["landscape.jpg", "portrait.jpg", "rotated.jpg", "transparent.png"] {
            try FileManager.default.copyItem(at: try PillowReference.sources().appendingPathComponent(name), to: served.appendingPathComponent(name))
        }
    }

    /// Runs `get --json` and returns its one object, failing the test on a non-zero exit.
    private func getJSON(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try imgfetch(["get", "--json"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try XCTUnwrap(jsonObjects(result.stdout, file: file, line: line).first, file: file, line: line)
    }

    private func size(_ object: [String: Any]) -> [Int] {
        [object["width"] as? Int ?? -1, object["height"] as? Int ?? -1]
    }

    private func path(_ object: [String: Any]) throws -> URL {
        URL(fileURLWithPath: try XCTUnwrap(object["path"] as? String))
    }

    func testEveryFitModeOnLandscapePortraitAndRotatedSourcesMatchesPillow() throws {
        // Displayed sizes: landscape 640×400, portrait and rotated (EXIF 6) 400×640.
        let expected: [String: [String: [Int]]] = [
            "landscape.jpg": ["inside": [200, 125], "cover": [200, 200], "fill": [200, 200]],
            "portrait.jpg": ["inside": [125, 200], "cover": [200, 200], "fill": [200, 200]],
            "rotated.jpg": ["inside": [125, 200], "cover": [200, 200], "fill": [200, 200]],
        ]
        // PNG output, so the comparison measures the shrink-on-load and resampling, not JPEG's loss.
        for (name, fits) in expected {
            for (fit, dimensions) in fits {
                let object = try getJSON(["--resize", "200x200", "--fit", fit, "--format", "png", url("/\(name)")])
                XCTAssertEqual(size(object), dimensions, "\(name) \(fit)")
                XCTAssertEqual(object["format"] as? String, "png")
                XCTAssertEqual(object["variant"] as? String, "200x200 \(fit) png")
                let psnr = try PillowReference.psnr(source: served.appendingPathComponent(name), output: try path(object), fit: fit)
                XCTAssertGreaterThanOrEqual(psnr, 30, "\(name) --fit \(fit): \(psnr) dB against Pillow's Lanczos")
            }
        }
        XCTAssertEqual(try requests("/rotated.jpg"), 1)
    }

    /// A compass gravity crops that side of the displayed picture, also for one stored on its side.
    func testGravityCropsTheSideItNamesAsPillowCentresItsFit() throws {
        for name in ["portrait.jpg", "rotated.jpg"] {
            for gravity in ["north", "south"] {
                let object = try getJSON(["--resize", "200x200", "--fit", "cover", "--gravity", gravity, "--format", "png", url("/\(name)")])
                XCTAssertEqual(object["variant"] as? String, "200x200 cover \(gravity) png")
                let psnr = try PillowReference.psnr(source: served.appendingPathComponent(name), output: try path(object), fit: "cover \(gravity)")
                XCTAssertGreaterThanOrEqual(psnr, 30, "\(name) --gravity \(gravity): \(psnr) dB against Pillow's fit")
            }
        }
    }

    /// `contain` letterboxes into the box with `--background`; `outside` covers it uncropped.
    func testContainPadsWithTheBackgroundAndOutsideCoversTheBox() throws {
        let contain = try getJSON(["--resize", "200x200", "--fit", "contain", "--background", "red", "--format", "png", url("/landscape.jpg")])
        XCTAssertEqual(size(contain), [200, 200])
        XCTAssertEqual(contain["variant"] as? String, "200x200 contain png bg #ff0000ff")
        let image = try DecoderRegistry.standard.decode(try Data(contentsOf: try path(contain)))
        for y in [0, 30, 170, 199] {
            XCTAssertEqual(Array(image.pixels[(y * 200 + 100) * 4..<((y * 200 + 100) * 4 + 4)]), [255, 0, 0, 255], "row \(y) is padding")
        }
        XCTAssertNotEqual(Array(image.pixels[(100 * 200 + 100) * 4..<((100 * 200 + 100) * 4 + 3)]), [255, 0, 0], "the picture is in the middle")
        let outside = try getJSON(["--resize", "200x200", "--fit", "outside", url("/landscape.jpg")])
        XCTAssertEqual(size(outside), [320, 200])
        XCTAssertEqual(outside["variant"] as? String, "200x200 outside")
    }

    /// `--lossless` WebP keeps every pixel; `--progressive` JPEG is progressive; `--kernel nearest`
    /// keeps the quadrants' colours unmixed.
    func testLosslessProgressiveAndNearest() throws {
        let lossless = try getJSON(["--format", "webp", "--lossless", url("/alpha.png")])
        XCTAssertEqual(lossless["variant"] as? String, "webp q80 lossless")
        let decoded = try DecoderRegistry.standard.decode(try Data(contentsOf: try path(lossless)))
        XCTAssertEqual(decoded.pixels, try DecoderRegistry.standard.decode(try fixture("alpha.png")).pixels)
        let progressive = try getJSON(["--resize", "32x", "--progressive", url("/baseline.jpg")])
        XCTAssertTrue(try DecoderRegistry.standard.probe(try Data(contentsOf: try path(progressive))).isProgressive)
        let nearest = try getJSON(["--resize", "16x", "--kernel", "nearest", "--format", "png", url("/palette.png")])
        let pixels = try DecoderRegistry.standard.decode(try Data(contentsOf: try path(nearest))).pixels
        let colours = Set(stride(from: 0, to: pixels.count, by: 4).map { Array(pixels[$0..<($0 + 4)]) })
        XCTAssertEqual(colours, [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]])
    }

    func testTheOutputIsUprightAndCarriesNoOrientation() throws {
        let object = try getJSON(["--resize", "100x", url("/rotated.jpg")])
        XCTAssertEqual(size(object), [100, 160])
        let info = try DecoderRegistry.standard.probe(try Data(contentsOf: try path(object)))
        XCTAssertEqual(info.orientation, .up)
        XCTAssertEqual([info.width, info.height], [100, 160])
    }

    func testNothingIsEnlargedWithoutUpscale() throws {
        XCTAssertEqual(size(try getJSON(["--resize", "256x256", url("/baseline.jpg")])), [64, 48])
        XCTAssertEqual(size(try getJSON(["--resize", "256x256", "--fit", "fill", url("/baseline.jpg")])), [64, 48])
        XCTAssertEqual(size(try getJSON(["--resize", "256x256", "--upscale", url("/baseline.jpg")])), [256, 192])
        XCTAssertEqual(size(try getJSON(["--resize", "256x256", "--fit", "cover", "--upscale", url("/baseline.jpg")])), [256, 256])
    }

    /// A spec that changes nothing for this image (already smaller than the box, same format; the
    /// first frame of a still; a quality for PNG output) caches no variant: the answer is the
    /// original, `transformed: false`, its path.
    func testATransformThatChangesNothingMakesNoVariant() throws {
        let original = try getJSON([url("/baseline.jpg")])
        for arguments in [["--resize", "256x256"], ["--resize", "256x256", "--fit", "cover"], ["--first-frame"], ["--resize", "64x48", "--format", "jpeg"]] {
            let object = try getJSON(arguments + [url("/baseline.jpg")])
            XCTAssertEqual(object["transformed"] as? Bool, false, "\(arguments)")
            XCTAssertEqual(object["path"] as? String, original["path"] as? String, "\(arguments)")
            XCTAssertEqual(size(object), [64, 48], "\(arguments)")
        }
        XCTAssertEqual(try getJSON(["--quality", "70", url("/alpha.png")])["transformed"] as? Bool, false)
        XCTAssertEqual(try cachedEntries().count, 2, "the two originals, no variant")
        // A conversion, a quality for JPEG, or a real shrink still makes one.
        for arguments in [["--resize", "256x256", "--format", "png"], ["--quality", "70"], ["--resize", "32x"]] {
            XCTAssertEqual(try getJSON(arguments + [url("/baseline.jpg")])["transformed"] as? Bool, true, "\(arguments)")
        }
        XCTAssertEqual(try cachedEntries().count, 5)
    }

    /// `--format avif`: libavif's encoder at sharp's defaults, read back by the AVIF decoder.
    func testAVIFOutput() throws {
        let object = try getJSON(["--resize", "200x", "--format", "avif", url("/landscape.jpg")])
        XCTAssertEqual(object["format"] as? String, "avif")
        XCTAssertEqual(object["variant"] as? String, "200x avif q50")
        XCTAssertEqual(size(object), [200, 125])
        let data = try Data(contentsOf: try path(object))
        XCTAssertEqual(DecoderRegistry.standard.format(of: data), .avif)
        // Pillow reads no AVIF: avifdec makes the PNG compared with Pillow's Lanczos.
        let png = directory.path("avif.png")
        let decoded = try Shell.run("avifdec '\(try path(object).path)' '\(png.path)'")
        XCTAssertEqual(decoded.status, 0, decoded.stderr)
        let psnr = try PillowReference.psnr(source: served.appendingPathComponent("landscape.jpg"), output: png, fit: "inside")
        XCTAssertGreaterThanOrEqual(psnr, 25, "\(psnr) dB against Pillow's Lanczos (quality 50 is lossy)")
        // The colour description says sRGB with BT.601's matrix, as avifenc writes, not "unspecified".
        let info = try Shell.run("avifdec --info '\(try path(object).path)'")
        XCTAssertEqual(info.status, 0, info.stderr)
        let cicp = ["Color Primaries", "Transfer Char.", "Matrix Coeffs."].map { name in
            lines(info.stdout).first { $0.contains(name) }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertEqual(cicp, ["1", "13", "6"], info.stdout)
    }

    func testAlphaIsKeptInPNGAndWebPVariants() throws {
        for format in ["png", "webp"] {
            let object = try getJSON(["--resize", "160x", "--format", format, url("/transparent.png")])
            XCTAssertEqual(size(object), [160, 100])
            XCTAssertEqual(object["format"] as? String, format)
            let image = try DecoderRegistry.standard.decode(try Data(contentsOf: try path(object)))
            XCTAssertTrue(image.info.hasAlpha, format)
            XCTAssertEqual(image.pixel(x: 1, y: 1).alpha, 0, "\(format): the transparent border stays transparent")
            XCTAssertEqual(image.pixel(x: 80, y: 25).alpha, 255, "\(format): the opaque middle stays opaque")
            // Lossy WebP adds its own error; PNG shows the resampling alone.
            let psnr = try PillowReference.psnr(source: served.appendingPathComponent("transparent.png"), output: try path(object), fit: "inside")
            XCTAssertGreaterThanOrEqual(psnr, format == "png" ? 30 : 25, format)
        }
    }

    func testICCProfilesAreConvertedToSRGBCMYKIncluded() throws {
        // Against Pillow's ImageCms conversion of the same file, then its Lanczos.
        for name in ["cmyk-icc.jpg", "adobe-rgb.png"] {
            let object = try getJSON(["--resize", "32x", "--format", "png", url("/\(name)")])
            let psnr = try PillowReference.psnr(source: served.appendingPathComponent(name), output: try path(object), fit: "inside")
            XCTAssertGreaterThanOrEqual(psnr, 30, "\(name): \(psnr) dB")
        }
        // Without its profile the same file comes out far from it: the profile made the difference.
        let stripped = served.appendingPathComponent("cmyk-no-icc.jpg")
        XCTAssertEqual(try Shell.run("convert \(Shell.quote(served.appendingPathComponent("cmyk-icc.jpg").path)) +profile '*' \(Shell.quote(stripped.path))").status, 0)
        let plain = try getJSON(["--resize", "32x", "--format", "png", url("/cmyk-no-icc.jpg")])
        let apart = try PillowReference.psnr(source: served.appendingPathComponent("cmyk-icc.jpg"), output: try path(plain), fit: "inside")
        XCTAssertLessThan(apart, 25, "without the profile: \(apart) dB")
    }

    func testAnAnimatedGIFBecomesAnAnimatedWebPWithEveryFrame() throws {
        let object = try getJSON(["--resize", "16x", url("/animated.gif")])
        XCTAssertEqual(object["format"] as? String, "webp")
        XCTAssertEqual(size(object), [16, 12])
        let source = try PillowReference.frames(of: served.appendingPathComponent("animated.gif"))
        let variant = try PillowReference.frames(of: try path(object))
        XCTAssertEqual(variant.count, source.count)
        XCTAssertEqual(variant.durations, source.durations)
        let still = try getJSON(["--resize", "16x", "--first-frame", url("/animated.gif")])
        XCTAssertEqual(still["format"] as? String, "png")
        XCTAssertEqual(try PillowReference.frames(of: try path(still)).count, 1)
    }

    func testTwoSizesOfOneURLMakeOneRequestAndTheSecondIdenticalCallMakesNothing() throws {
        let u = url("/landscape.jpg")
        let first = try getJSON(["--resize", "256x256", u])
        XCTAssertEqual(first["cache"] as? String, "network")
        XCTAssertEqual(first["transformed"] as? Bool, true)
        let second = try getJSON(["--resize", "100", u])
        XCTAssertEqual(second["cache"] as? String, "disk", "the original came from the disk cache")
        XCTAssertEqual(second["transformed"] as? Bool, true)
        let again = try getJSON(["--resize", "256x256", "--fit", "inside", u])
        XCTAssertEqual(again["transformed"] as? Bool, false)
        XCTAssertEqual(again["cache"] as? String, "disk")
        XCTAssertEqual(again["path"] as? String, first["path"] as? String)
        XCTAssertEqual(try requests("/landscape.jpg"), 1)
        // The original is cached too, and is what a plain get prints.
        let plain = try getJSON([u])
        XCTAssertEqual(size(plain), [640, 400])
        XCTAssertNotEqual(plain["path"] as? String, first["path"] as? String)
        XCTAssertEqual(plain["variant"] as? NSNull, NSNull())
        XCTAssertEqual(try cachedEntries().count, 3)
    }

    func testPlainPathOutputAndWritingTheVariantElsewhere() throws {
        let result = try imgfetch(["get", "--resize", "64x64", "--format", "webp", url("/landscape.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let printed = result.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(printed.hasPrefix(cacheDirectory.path) && printed.hasSuffix(".webp"), printed)
        let copy = directory.path("thumb.webp")
        XCTAssertEqual(try imgfetch(["get", "--resize", "64x64", "--format", "webp", "-o", copy.path, url("/landscape.jpg")]).status, 0)
        XCTAssertEqual(try Data(contentsOf: copy), try Data(contentsOf: URL(fileURLWithPath: printed)))
    }

    func testPurgingAURLRemovesItsVariantsAndVariantsAloneCanGo() throws {
        let u = url("/portrait.jpg")
        let small = try path(try getJSON(["--resize", "50", u]))
        _ = try getJSON(["--resize", "80", "--format", "png", u])
        XCTAssertEqual(try cachedEntries().count, 3)

        XCTAssertEqual(try imgfetch(["cache", "purge", "--variants", u]).status, 0)
        XCTAssertEqual(try cachedEntries().map(\.key.rawValue), [u])
        XCTAssertFalse(FileManager.default.fileExists(atPath: small.path))

        _ = try getJSON(["--resize", "50", u])
        let purge = try imgfetch(["cache", "purge", u])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertTrue(purge.stderr.hasPrefix("imgfetch: purge: removed 2 entries"), purge.stderr)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    func testCacheShowListsAnOriginalsVariants() throws {
        let u = url("/portrait.jpg")
        _ = try getJSON(["--resize", "50", u])
        _ = try getJSON(["--resize", "80x80", "--fit", "cover", "--format", "webp", u])
        let text = try imgfetch(["cache", "show", u])
        XCTAssertEqual(text.status, 0, text.stderr)
        let rows = lines(text.stdout).filter { $0.hasPrefix("variant:") }
        XCTAssertEqual(rows.count, 2, text.stdout)
        XCTAssertTrue(rows.contains { $0.contains("50x jpeg 50x80") }, text.stdout)
        XCTAssertTrue(rows.contains { $0.contains("80x80 cover webp q80 webp 80x80") }, text.stdout)
        let json = try XCTUnwrap(jsonObjects(try imgfetch(["cache", "show", "--json", u]).stdout).first)
        XCTAssertEqual(json["variants"] as? [String], ["50x", "80x80 cover webp q80"])
    }

    func testCacheListShowsVariantsWithTheirSpec() throws {
        let u = url("/landscape.jpg")
        _ = try getJSON(["--resize", "64x64", "--fit", "cover", u])
        let text = try imgfetch(["cache", "ls", "--sort", "url"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let rows = lines(text.stdout).map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(rows.map { $0[5] }.sorted(), ["-", "64x64 cover"])
        XCTAssertEqual(Set(rows.map { $0[6] }), [u], "a variant is listed under its original's URL")
        let json = try jsonObjects(try imgfetch(["cache", "ls", "--json"]).stdout)
        XCTAssertEqual(Set(json.map { $0["variant"] as? String ?? "-" }), ["-", "64x64 cover"])
    }

    func testBadSpecsAreUsageErrorsBeforeAnyRequest() throws {
        let cases: [([String], String)] = [
            (["--resize", "0x0"], "--resize '0x0'"),
            (["--resize", "abc"], "--resize 'abc'"),
            (["--resize", "20000x20000"], "limit of 100000000 pixels"),
            (["--resize", "200x200", "--max-pixels", "1000"], "limit of 1000 pixels"),
            (["--quality", "0"], "--quality 0"),
            (["--quality", "101", "--resize", "10"], "--quality 101"),
            (["--resize", "10", "--fit", "sideways"], "--fit 'sideways'"),
            (["--format", "gif"], "--format 'gif'"),
            (["--resize", "-5x10"], "--resize '-5x10' is not a size"),
            (["--fit", "cover"], "--fit changes nothing without --resize"),
            (["--upscale"], "--upscale changes nothing without --resize"),
            (["--upscale", "--format", "webp"], "--upscale changes nothing without --resize"),
            (["--resize", "256", "--fit", "fill"], "--fit fill needs both sides"),
            (["--format", "png", "--quality", "70"], "--quality changes nothing with --format png"),
            (["--resize", "100x100", "--gravity", "north"], "--gravity changes nothing without --fit cover"),
            (["--resize", "100x100", "--background", "red"], "--background changes nothing without --fit contain"),
            (["--resize", "100x100", "--fit", "contain", "--background", "reddish"], "--background 'reddish' is not a colour"),
            (["--resize", "100", "--fit", "outside"], "--fit outside needs both sides"),
            (["--kernel", "nearest"], "--kernel changes nothing without --resize"),
            (["--resize", "10", "--kernel", "box"], "--kernel 'box'"),
            (["--format", "jpeg", "--lossless"], "--lossless changes nothing with --format jpeg"),
            (["--format", "png", "--progressive"], "--progressive changes nothing with --format png"),
            (["--resize", "100x100", "--fit", "cover", "--gravity", "up"], "--gravity 'up'"),
            (["--keep-metadata"], "--keep-metadata changes nothing alone"),
        ]
        for (arguments, message) in cases {
            for command in [["get"], ["info"]] {
                let result = try imgfetch(command + arguments + [url("/landscape.jpg")])
                XCTAssertEqual(result.status, 2, "\(command) \(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }
            let list = try directory.write(Data(url("/landscape.jpg").utf8), to: "list.txt")
            XCTAssertEqual(try imgfetch(["prefetch"] + arguments + [list.path]).status, 2, "prefetch \(arguments)")
        }
        XCTAssertEqual(try requests("/landscape.jpg"), 0)
    }

    func testCacheOnlyMakesAVariantFromTheCachedOriginal() throws {
        let u = url("/landscape.jpg")
        let miss = try imgfetch(["get", "--cache-only", "--resize", "32", u])
        XCTAssertEqual(miss.status, 6, miss.stderr)
        XCTAssertEqual(try imgfetch(["get", u]).status, 0)
        let object = try getJSON(["--cache-only", "--resize", "32", u])
        XCTAssertEqual(object["transformed"] as? Bool, true)
        XCTAssertEqual(size(object), [32, 20])
        XCTAssertEqual(try requests("/landscape.jpg"), 1)
    }

    func testInfoOfAURLWithResizeDescribesTheVariant() throws {
        let result = try imgfetch(["info", "--json", "--resize", "100x100", "--fit", "cover", "--format", "webp", url("/landscape.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(jsonObjects(result.stdout).first)
        XCTAssertEqual(object["format"] as? String, "webp")
        XCTAssertEqual([object["width"] as? Int, object["height"] as? Int], [100, 100])
    }

    func testPrefetchMakesAVariantOfEveryURLAndCachesTheOriginals() throws {
        let names = ["landscape.jpg", "portrait.jpg", "alpha.png", "animated.gif", "lossy.webp", "static.gif"]
        let list = try directory.write(Data(names.map { url("/\($0)") }.joined(separator: "\n").utf8), to: "list.txt")
        let result = try imgfetch(["prefetch", "--json", "-j", "4", "--resize", "48x48", list.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.count, names.count)
        XCTAssertTrue(objects.allSatisfy { $0["variant"] as? String == "48x48 inside" && $0["transformed"] as? Bool == true })
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: objects.map { ($0["url"] as? String ?? "", $0["format"] as? String ?? "") }),
                       Dictionary(uniqueKeysWithValues: zip(names.map { url("/\($0)") }, ["jpeg", "jpeg", "png", "webp", "webp", "png"])))
        XCTAssertEqual(try cachedEntries().count, 2 * names.count)
        let verify = try imgfetch(["cache", "verify"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertTrue(verify.stderr.hasPrefix("imgfetch: verify: \(2 * names.count) checked, 0 damaged"), verify.stderr)
    }

    func testProcessesWantingOneVariantMakeItOnce() throws {
        let u = url("/landscape.jpg", ["delay_ms": "150"])
        let command = "\(Shell.quote(Imgfetch.binary.path)) get --json --resize 120x120 \(Shell.quote(u))"
        let result = try Shell.run(
            (0..<6).map { _ in command + " &" }.joined(separator: " ") + " wait",
            environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.count, 6, result.stdout + result.stderr)
        XCTAssertEqual(objects.filter { $0["transformed"] as? Bool == true }.count, 1, result.stdout)
        XCTAssertEqual(Set(objects.compactMap { $0["path"] as? String }).count, 1)
        XCTAssertEqual(try requests("/landscape.jpg"), 1)
    }

    func testADamagedVariantIsFoundByVerifyAndMadeAgain() throws {
        let u = url("/landscape.jpg")
        let variant = try path(try getJSON(["--resize", "90", u]))
        let handle = try FileHandle(forWritingTo: variant)
        try handle.truncate(atOffset: 100)
        try handle.close()
        let verify = try imgfetch(["cache", "verify"])
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssertTrue(verify.stderr.contains("1 damaged"), verify.stderr)
        let again = try getJSON(["--resize", "90", u])
        XCTAssertEqual(again["transformed"] as? Bool, true)
        XCTAssertEqual(try imgfetch(["cache", "verify"]).status, 0)
        XCTAssertEqual(try requests("/landscape.jpg"), 1)
    }
}
