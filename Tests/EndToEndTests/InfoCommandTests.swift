import Foundation
import XCTest

/// Runs the built binary's `info` command on the committed fixtures and on files in a fresh
/// temporary directory.
final class InfoCommandTests: XCTestCase {
    private let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imgfetch-info-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    func testInfoPrintsFormatSizeFramesAndBytesPerFile() throws {
        let result = try Imgfetch.run(["info", fixture("baseline.jpg"), fixture("animated.gif"), fixture("orientation-6.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let bytes = { (name: String) in (try? Data(contentsOf: self.fixtures.appendingPathComponent(name)).count) ?? -1 }
        XCTAssertEqual(result.stdout.split(separator: "\n"), [
            "\(fixture("baseline.jpg")): jpeg 64x48 1 frame \(bytes("baseline.jpg")) bytes",
            "\(fixture("animated.gif")): gif 32x24 3 frames \(bytes("animated.gif")) bytes",
            "\(fixture("orientation-6.jpg")): jpeg 48x64 1 frame \(bytes("orientation-6.jpg")) bytes",
        ])
    }

    func testJSONPrintsOneObjectPerLineWithTheAgreedKeys() throws {
        let result = try Imgfetch.run(["info", "--json", fixture("animated.webp"), fixture("rgb16.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(Set(first.keys), ["file", "format", "width", "height", "frames", "bytes"])
        XCTAssertEqual(first["file"] as? String, fixture("animated.webp"))
        XCTAssertEqual(first["format"] as? String, "webp")
        XCTAssertEqual(first["width"] as? Int, 32)
        XCTAssertEqual(first["height"] as? Int, 24)
        XCTAssertEqual(first["frames"] as? Int, 3)
        let second = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        XCTAssertEqual(second["format"] as? String, "png")
    }

    func testABadFileAmongGoodOnesIsReportedAndTheOthersAreStillDone() throws {
        let result = try Imgfetch.run(["info", fixture("lossy.webp"), fixture("truncated-baseline.jpg"), fixture("static.gif")])
        XCTAssertEqual(result.status, 1, "a partial failure")
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(
            result.stderr,
            "imgfetch: \(fixture("truncated-baseline.jpg")): The JPEG data ends before the image is complete; it is truncated.\n"
        )
    }

    func testOnlyUnsupportedFilesExitAsNotAnImage() throws {
        let result = try Imgfetch.run(["info", fixture("unsupported.qoi"), fixture("not-an-image.html")])
        XCTAssertEqual(result.status, 5)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n"), [
            "imgfetch: \(fixture("unsupported.qoi")): QOI images are not supported; imgfetch decodes JPEG, PNG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF, BMP and ICO.",
            "imgfetch: \(fixture("not-an-image.html")): The data is not an image in a known format (JPEG, PNG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF, BMP or ICO).",
        ])
    }

    func testTheBombIsRefusedAsNotAnImage() throws {
        let result = try Imgfetch.run(["info", fixture("bomb.png")])
        XCTAssertEqual(result.status, 5)
        XCTAssertTrue(result.stderr.contains("100000×100000 pixels, more than the limit"), result.stderr)
    }

    func testAMissingFileExitsAsAFileError() throws {
        let missing = directory.appendingPathComponent("missing.jpg").path
        let result = try Imgfetch.run(["info", missing])
        XCTAssertEqual(result.status, 8)
        XCTAssertEqual(result.stderr, "imgfetch: \(missing): The file cannot be read: there is no such file.\n")
    }

    func testDecodeFlagCatchesDamagedPixelData() throws {
        let copy = directory.appendingPathComponent("looks-fine.png")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("corrupt-data.png"), to: copy)
        XCTAssertEqual(try Imgfetch.run(["info", copy.path]).status, 0)
        let decoded = try Imgfetch.run(["info", "--decode", copy.path])
        XCTAssertEqual(decoded.status, 5)
        XCTAssertTrue(decoded.stderr.hasPrefix("imgfetch: \(copy.path): The PNG data is corrupt:"), decoded.stderr)
    }

    func testDecodeFlagDecodesEveryGoodFixture() throws {
        let names = ["baseline.jpg", "progressive.jpg", "cmyk.jpg", "gray.jpg", "palette.png", "interlaced.png",
                     "alpha.png", "static.gif", "animated.gif", "lossy.webp", "lossless.webp", "alpha.webp", "animated.webp"]
        let result = try Imgfetch.run(["info", "--decode"] + names.map(fixture))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, names.count)
    }

    /// A codec library that cannot be loaded (here libpng, hidden behind /dev/null in a private
    /// mount namespace) is this machine's problem: exit 8, and the message says which library.
    func testAMissingCodecLibraryIsAFileErrorNotABadImage() throws {
        let library = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libpng16.so.16").resolvingSymlinksInPath().path
        let file = fixture("alpha.png")
        let script = """
            unshare -m sh -c 'mount --bind /dev/null \(library) || exit 99
            exec \(Imgfetch.binary.path) info --decode \(file)'
            """
        let result = try Shell.run(script)
        if result.status == 99 || result.stderr.contains("unshare: ") {
            throw XCTSkip("no private mount namespace here: \(result.stderr)")
        }
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: \(file): PNG images cannot be decoded here: cannot load libpng16.so.16"), result.stderr)
    }
}
