import Foundation
import XCTest

/// AVIF, HEIC, JPEG XL and TIFF end to end: `info` and `get` name, count, cache and refuse them
/// as they do the first four formats.
final class CodecFormatTests: EndToEndTestCase {
    private let damaged = [
        "truncated-still.avif", "truncated-sequence.avif", "corrupt.avif", "truncated-still.heic", "corrupt.heic",
        "truncated-container.jxl", "truncated-lossy.jxl", "corrupt.jxl", "truncated-strip.tif", "corrupt.tif",
    ]

    func testGetCachesEachFormatUnderItsExtension() throws {
        let names = ["still.avif", "still.heic", "lossy.jxl", "quads.tif"]
        let result = try imgfetch(["get"] + names.map { url("/\($0)") })

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(lines(result.stdout).map { ($0 as NSString).pathExtension }, ["avif", "heic", "jxl", "tif"])
        for (path, name) in zip(lines(result.stdout), names) {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), try fixture(name), name)
        }
        XCTAssertEqual(try cachedEntries().count, 4)
    }

    func testInfoJSONNamesTheFormatsAndCountsFramesAndPages() throws {
        let names = ["sequence.avif", "alpha.heic", "animated.jxl", "multipage.tif"]
        let result = try imgfetch(["info", "--json", "--decode"] + names.map { Self.fixtures.appendingPathComponent($0).path })

        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try jsonObjects(result.stdout)
        XCTAssertEqual(objects.map { $0["format"] as? String }, ["avif", "heic", "jxl", "tiff"])
        XCTAssertEqual(objects.map { $0["frames"] as? Int }, [3, 1, 3, 3])
        XCTAssertEqual(objects.map { $0["width"] as? Int }, [32, 64, 32, 64])
    }

    func testTruncatedAndCorruptFilesExitFiveFromInfo() throws {
        for name in damaged {
            let result = try imgfetch(["info", Self.fixtures.appendingPathComponent(name).path])
            XCTAssertEqual(result.status, 5, "\(name): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains(name.hasPrefix("corrupt") ? "corrupt" : "truncated"), result.stderr)
        }
    }

    func testTruncatedAndCorruptDownloadsExitFiveAndCacheNothing() throws {
        for name in damaged {
            let result = try imgfetch(["get", url("/\(name)")])
            XCTAssertEqual(result.status, 5, "\(name): \(result.stdout)")
            XCTAssertEqual(result.stdout, "", name)
        }
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    /// A bare JPEG XL codestream cut inside its last frame passes the header checks, so validating
    /// one decodes it: a plain `get` refuses it as `get --verify decode` and `info --decode` do.
    func testTruncatedJXLCodestreamIsFoundByDecoding() throws {
        let plain = try imgfetch(["get", url("/truncated-lossy.jxl")])
        XCTAssertEqual(plain.status, 5, plain.stdout)
        XCTAssertTrue(plain.stderr.contains("truncated"), plain.stderr)

        let info = try imgfetch(["info", "--decode", Self.fixtures.appendingPathComponent("truncated-lossy.jxl").path])
        XCTAssertEqual(info.status, 5, info.stdout)
        XCTAssertTrue(info.stderr.contains("truncated"), info.stderr)

        let get = try imgfetch(["get", "--retry-failed", "--verify", "decode", url("/truncated-lossy.jxl")])
        XCTAssertEqual(get.status, 5, get.stdout)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    /// A JPEG XL container whose image decodes whole but whose compressed `Exif` box after the
    /// codestream is damaged (jxl-oxide's `squeeze_tendency_overflow.fuzz`; djxl refuses it):
    /// plain `info` reads its headers, `info --decode` runs libjxl to its end and refuses it.
    func testJXLWithADamagedBoxAfterItsImageFailsInfoDecode() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt32(8 + payload.count).bigEndian) { Array($0) } + Array(type.utf8) + payload
        }
        let codestream = [UInt8](try fixture("lossy.jxl"))
        let container = box("JXL ", [0x0D, 0x0A, 0x87, 0x0A]) + box("ftyp", Array("jxl \0\0\0\0jxl ".utf8))
            + box("jxlc", codestream) + box("brob", Array("Exif".utf8) + [0xFF, 0xFE, 0x13, 0x37, 0, 0, 0, 0])
        let file = directory.path("damaged-tail.jxl")
        try Data(container).write(to: file)

        XCTAssertEqual(try imgfetch(["info", file.path]).status, 0)
        let decoded = try imgfetch(["info", "--decode", file.path])
        XCTAssertEqual(decoded.status, 5, decoded.stdout)
        XCTAssertTrue(decoded.stderr.contains("libjxl cannot read its 'Exif' box"), decoded.stderr)
    }

    /// The library file is hidden behind /dev/null in a private mount namespace, so dlopen fails
    /// as on a machine without the package. Needs root (or user namespaces) and unshare(1).
    func testAMissingCodecLibraryExitsEightAndNamesThePackage() throws {
        let hidden = ["avif": "libavif.so.15", "heic": "libheif.so.1", "jxl": "libjxl.so.0.7", "tif": "libtiff.so.6"]
        let files = ["avif": "still.avif", "heic": "still.heic", "jxl": "lossy.jxl", "tif": "quads.tif"]
        for (key, soname) in hidden.sorted(by: { $0.key < $1.key }) {
            let library = "/usr/lib/x86_64-linux-gnu/\(soname)"
            guard FileManager.default.fileExists(atPath: library) else { throw XCTSkip("\(library) is not where this test hides it") }
            let file = Self.fixtures.appendingPathComponent(files[key]!).path
            let script = "mount --bind /dev/null \(Shell.quote(library)) && exec \(Shell.quote(Imgfetch.binary.path)) info --decode \(Shell.quote(file))"
            let result = try Shell.run("exec unshare --mount -- bash -c \(Shell.quote(script))")
            if result.status != 8, result.stderr.contains("unshare") || result.stderr.contains("mount:") {
                throw XCTSkip("no private mount namespace here: \(result.stderr)")
            }
            XCTAssertEqual(result.status, 8, "\(key): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot load \(soname)"), result.stderr)
        }
    }
}
