import Foundation
import XCTest

/// `--keep-metadata`: a variant in each output format, still or animated WebP, carries its
/// original's ICC profile and its EXIF with the orientation reset to 1; without the flag it
/// carries neither. Read back by
/// exiftool, which reads all four formats.
final class KeepMetadataTests: EndToEndTestCase {
    /// icc.jpg (an RGB profile) with orientation-6.jpg's EXIF segment (orientation 6) after its SOI:
    /// 64×48 stored, 48×64 upright.
    private func servedTaggedJPEG() throws -> (profile: Data, name: String) {
        let exifSource = try fixture("orientation-6.jpg")
        let segmentLength = Int(exifSource[4]) << 8 | Int(exifSource[5])
        XCTAssertEqual(exifSource[2...3], Data([0xFF, 0xE1]))
        let app1 = exifSource[2..<(4 + segmentLength)]
        let icc = try fixture("icc.jpg")
        try (icc.prefix(2) + app1 + icc.dropFirst(2)).write(to: served.appendingPathComponent("tagged.jpg"))
        XCTAssertEqual(try exiftool(["-n", "-s3", "-Orientation"], served.appendingPathComponent("tagged.jpg")), "6")
        let profile = try exiftoolBytes(["-b", "-ICC_Profile"], served.appendingPathComponent("tagged.jpg"))
        XCTAssertGreaterThan(profile.count, 128)
        return (profile, "tagged.jpg")
    }

    func testEachFormatKeepsTheProfileAndTheEXIFUprightOnlyWhenAsked() throws {
        let (profile, name) = try servedTaggedJPEG()
        for format in ["jpeg", "png", "webp", "avif"] {
            let kept = try getJSON(["--resize", "24x", "--format", format, "--keep-metadata", url("/\(name)")])
            let quality = format == "png" ? "" : format == "avif" ? " q50" : " q80"
            XCTAssertEqual(kept["variant"] as? String, "24x \(format)\(quality) keep-metadata")
            XCTAssertEqual([kept["width"] as? Int, kept["height"] as? Int], [24, 32], format)
            let keptFile = URL(fileURLWithPath: try XCTUnwrap(kept["path"] as? String))
            XCTAssertEqual(try exiftoolBytes(["-b", "-ICC_Profile"], keptFile), profile, format)
            XCTAssertEqual(try exiftool(["-n", "-s3", "-Orientation"], keptFile), "1", format)

            let plain = try getJSON(["--resize", "24x", "--format", format, url("/\(name)")])
            XCTAssertEqual(plain["variant"] as? String, "24x \(format)\(quality)")
            let plainFile = URL(fileURLWithPath: try XCTUnwrap(plain["path"] as? String))
            XCTAssertNotEqual(plainFile, keptFile, "kept and stripped are two variants")
            XCTAssertEqual(try exiftoolBytes(["-b", "-ICC_Profile"], plainFile), Data(), format)
            XCTAssertEqual(try exiftool(["-n", "-s3", "-Orientation"], plainFile), "", format)
            XCTAssertEqual(try exiftool(["-s3", "-EXIF:all"], plainFile), "", format)
        }
        XCTAssertEqual(try requests("/\(name)"), 1)
    }

    /// An animated WebP variant keeps them too (ICCP and EXIF chunks beside its frames): the
    /// frames are composed as stored, never converted to sRGB, so the profile still fits them.
    func testAnAnimatedWebPVariantKeepsTheProfileAndTheEXIFUpright() throws {
        let profile = directory.path("adobe.icc")
        try exiftoolBytes(["-b", "-ICC_Profile"], Self.fixtures.appendingPathComponent("icc.jpg")).write(to: profile)
        let exif = try orientation6EXIF()
        let withProfile = directory.path("with-profile.webp")
        let tagged = served.appendingPathComponent("tagged-animation.webp")
        let made = try Shell.run(
            "webpmux -set icc \(Shell.quote(profile.path)) \(Shell.quote(Self.fixtures.appendingPathComponent("animated.webp").path)) -o \(Shell.quote(withProfile.path)) && "
                + "webpmux -set exif \(Shell.quote(exif.path)) \(Shell.quote(withProfile.path)) -o \(Shell.quote(tagged.path))")
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try exiftool(["-n", "-s3", "-Orientation"], tagged), "6")

        let keptFile = try keptAnimatedVariant(of: "tagged-animation.webp", frames: 3, features: "animation ICC profile EXIF metadata")
        XCTAssertEqual(try exiftoolBytes(["-b", "-ICC_Profile"], keptFile), try Data(contentsOf: profile))

        let plain = try getJSON(["--resize", "24x", url("/tagged-animation.webp")])
        let plainFile = URL(fileURLWithPath: try XCTUnwrap(plain["path"] as? String))
        XCTAssertEqual(try exiftoolBytes(["-b", "-ICC_Profile"], plainFile), Data())
        XCTAssertEqual(try exiftool(["-s3", "-EXIF:all"], plainFile), "")
    }

    /// So does one of an APNG (its `iCCP` and `eXIf` chunks, put after IHDR here).
    func testAnAnimatedVariantOfAnAPNGKeepsTheProfileAndTheEXIFUpright() throws {
        let profile = directory.path("adobe.icc")
        try exiftoolBytes(["-b", "-ICC_Profile"], Self.fixtures.appendingPathComponent("icc.jpg")).write(to: profile)
        let exif = try orientation6EXIF()
        let tagged = served.appendingPathComponent("tagged-animation.png")
        let script = """
            import struct, sys, zlib
            def chunk(kind, body):
                return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
            png, icc, exif = (open(name, 'rb').read() for name in sys.argv[1:4])
            extra = chunk(b'iCCP', b'Adobe RGB\\0\\0' + zlib.compress(icc)) + chunk(b'eXIf', exif)
            open(sys.argv[4], 'wb').write(png[:33] + extra + png[33:])
            """
        let made = try Shell.run(
            "python3 -c \(Shell.quote(script)) \(Shell.quote(Self.fixtures.appendingPathComponent("animated.png").path)) "
                + "\(Shell.quote(profile.path)) \(Shell.quote(exif.path)) \(Shell.quote(tagged.path))")
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try exiftool(["-n", "-s3", "-Orientation"], tagged), "6")
        XCTAssertEqual(try exiftoolBytes(["-b", "-ICC_Profile"], tagged), try Data(contentsOf: profile))

        let keptFile = try keptAnimatedVariant(of: "tagged-animation.png", frames: 4, features: "animation ICC profile EXIF metadata")
        XCTAssertEqual(try exiftoolBytes(["-b", "-ICC_Profile"], keptFile), try Data(contentsOf: profile))
    }

    /// The EXIF block of orientation-6.jpg (orientation 6), in a file of its own.
    private func orientation6EXIF() throws -> URL {
        let exif = directory.path("exif.bin")
        try exiftoolBytes(["-b", "-EXIF"], Self.fixtures.appendingPathComponent("orientation-6.jpg")).write(to: exif)
        return exif
    }

    /// The `--keep-metadata` variant of the served animation `name`: an animated WebP of all its
    /// `frames` whose chunks are `features` (webpmux's words), its EXIF orientation 1. Its file.
    private func keptAnimatedVariant(
        of name: String, frames: Int, features: String, file: StaticString = #filePath, line: UInt = #line
    ) throws -> URL {
        let kept = try getJSON(["--resize", "24x", "--keep-metadata", url("/\(name)")], file: file, line: line)
        XCTAssertEqual(kept["variant"] as? String, "24x keep-metadata", file: file, line: line)
        XCTAssertEqual(kept["format"] as? String, "webp", file: file, line: line)
        let keptFile = URL(fileURLWithPath: try XCTUnwrap(kept["path"] as? String, file: file, line: line))
        XCTAssertEqual(try exiftool(["-n", "-s3", "-Orientation"], keptFile), "1", file: file, line: line)
        let info = try Shell.run("webpmux -info \(Shell.quote(keptFile.path))")
        XCTAssertTrue(info.stdout.contains("Features present: \(features)\n"), info.stdout, file: file, line: line)
        XCTAssertTrue(info.stdout.contains("Number of frames: \(frames)\n"), "every frame kept: \(info.stdout)", file: file, line: line)
        return keptFile
    }

    /// The kept profile describes the pixels: they stay in its space, as the original's are, rather
    /// than being converted to sRGB under a profile that no longer fits them. A flat green in
    /// icc.jpg's Adobe RGB profile, which sRGB would turn into about (0, 161, 48).
    func testKeptProfileLeavesThePixelsInItsSpace() throws {
        let profile = directory.path("adobe.icc")
        try exiftoolBytes(["-b", "-ICC_Profile"], Self.fixtures.appendingPathComponent("icc.jpg")).write(to: profile)
        let flat = directory.path("flat.jpg")
        let made = try Shell.run(
            "convert -size 64x48 'xc:rgb(60,160,60)' -quality 95 \(Shell.quote(flat.path)) && "
                + "convert \(Shell.quote(flat.path)) -profile \(Shell.quote(profile.path)) \(Shell.quote(served.appendingPathComponent("flat.jpg").path))")
        XCTAssertEqual(made.status, 0, made.stderr)
        let kept = try getJSON(["--resize", "24x", "--format", "png", "--keep-metadata", url("/flat.jpg")])
        let plain = try getJSON(["--resize", "24x", "--format", "png", url("/flat.jpg")])
        let keptGreen = try pixel(of: try XCTUnwrap(kept["path"] as? String))
        let plainGreen = try pixel(of: try XCTUnwrap(plain["path"] as? String))
        for (value, expected) in zip(keptGreen, [60, 160, 60]) { XCTAssertEqual(Double(value), Double(expected), accuracy: 3, "kept: \(keptGreen)") }
        XCTAssertGreaterThan(abs(plainGreen[0] - 60), 30, "stripped: converted to sRGB, \(plainGreen)")
    }

    /// An animation's frames follow the same rule: under a kept profile they stay in its space;
    /// without the flag they are converted to sRGB, as a still is, not left in a space no profile
    /// names any more. A flat green frame and a flat purple one of an animated WebP in icc.jpg's
    /// Adobe RGB profile (two frames alike would be assembled as a still).
    func testAnAnimationsFramesAreConvertedToSRGBUnlessItsProfileIsKept() throws {
        let profile = directory.path("adobe.icc")
        try exiftoolBytes(["-b", "-ICC_Profile"], Self.fixtures.appendingPathComponent("icc.jpg")).write(to: profile)
        let (first, second, bare) = (directory.path("1.png"), directory.path("2.png"), directory.path("bare.webp"))
        let made = try Shell.run(
            "convert -size 64x48 'xc:rgb(60,160,60)' \(Shell.quote(first.path)) && convert -size 64x48 'xc:rgb(160,60,200)' \(Shell.quote(second.path)) && "
                + "img2webp -loop 0 -lossless -d 100 \(Shell.quote(first.path)) \(Shell.quote(second.path)) -o \(Shell.quote(bare.path)) && "
                + "webpmux -set icc \(Shell.quote(profile.path)) \(Shell.quote(bare.path)) -o \(Shell.quote(served.appendingPathComponent("green.webp").path))")
        XCTAssertEqual(made.status, 0, made.stderr)

        let kept = try getJSON(["--resize", "24x", "--keep-metadata", url("/green.webp")])
        let plain = try getJSON(["--resize", "24x", url("/green.webp")])
        let keptGreen = try firstFramePixel(of: try XCTUnwrap(kept["path"] as? String))
        let plainGreen = try firstFramePixel(of: try XCTUnwrap(plain["path"] as? String))
        for (value, expected) in zip(keptGreen, [60, 160, 60]) { XCTAssertEqual(Double(value), Double(expected), accuracy: 5, "kept: \(keptGreen)") }
        XCTAssertGreaterThan(abs(plainGreen[0] - 60), 30, "stripped: converted to sRGB, \(plainGreen)")
    }

    /// `pixel(of:)` of an animated WebP's first frame (webpmux takes it out, dwebp decodes it).
    private func firstFramePixel(of path: String) throws -> [Int] {
        let (frame, png) = (directory.path("frame.webp"), directory.path("frame.png"))
        let taken = try Shell.run(
            "webpmux -get frame 1 \(Shell.quote(path)) -o \(Shell.quote(frame.path)) && dwebp -quiet \(Shell.quote(frame.path)) -o \(Shell.quote(png.path))")
        XCTAssertEqual(taken.status, 0, taken.stderr)
        return try pixel(of: png.path)
    }

    func testKeepMetadataAloneIsAUsageError() throws {
        let result = try imgfetch(["get", "--keep-metadata", url("/photo.jpg")])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--keep-metadata changes nothing alone"), result.stderr)
        XCTAssertEqual(try requests("/photo.jpg"), 0)
    }

    private func getJSON(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try imgfetch(["get", "--json"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try XCTUnwrap(jsonObjects(result.stdout, file: file, line: line).first, file: file, line: line)
    }

    private func exiftool(_ arguments: [String], _ file: URL) throws -> String {
        let result = try Shell.run("exiftool \(arguments.map(Shell.quote).joined(separator: " ")) \(Shell.quote(file.path))")
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func exiftoolBytes(_ arguments: [String], _ file: URL) throws -> Data {
        let out = directory.path("exiftool.out")
        let result = try Shell.run("exiftool \(arguments.map(Shell.quote).joined(separator: " ")) \(Shell.quote(file.path)) > \(Shell.quote(out.path))")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Data(contentsOf: out)
    }

    /// The pixel at (8, 8) as ImageMagick reads it (ignoring any profile): red, green, blue.
    private func pixel(of path: String) throws -> [Int] {
        let result = try Shell.run("convert \(Shell.quote(path)) -format '%[fx:int(255*p{8,8}.r+0.5)] %[fx:int(255*p{8,8}.g+0.5)] %[fx:int(255*p{8,8}.b+0.5)]' info:")
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: " ").compactMap { Int($0) }
    }
}
