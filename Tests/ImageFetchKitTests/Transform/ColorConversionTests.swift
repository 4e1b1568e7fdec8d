import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

final class ColorConversionTests: XCTestCase {
    func testRGBAWithoutAProfileIsReturnedAsItIsWithoutACopy() throws {
        let image = try RGBAImage.fixture("alpha.png")
        let source = SourceImage(width: image.width, height: image.height, pixels: image.pixels, colorModel: .rgba, iccProfile: nil, orientation: .right)
        let address = source.pixels.withUnsafeBufferPointer { $0.baseAddress }
        let converted = try source.convertedToSRGB()
        XCTAssertEqual(converted, image)
        XCTAssertEqual(converted.pixels.withUnsafeBufferPointer { $0.baseAddress }, address, "the same buffer, not a copy")
    }

    func testAdobeRGBPNGConvertsAsPillowsImageCmsDoesAndKeepsAlpha() throws {
        let image = try RGBAImage.fixture("adobe-rgb.png")
        let profile = try Self.embeddedProfile("adobe-rgb.png")
        let directory = try TemporaryDirectory(prefix: "imgfetch-colour")
        let raw = try Pillow.rawFile(image, in: directory)
        let iccFile = try directory.write(Data(profile), to: "profile.icc").path
        let reference = try Pillow.run("""
            import sys
            from PIL import Image, ImageCms
            raw, w, h, icc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
            image = Image.frombytes('RGBA', (w, h), open(raw, 'rb').read())
            out = ImageCms.profileToProfile(image, ImageCms.ImageCmsProfile(icc), ImageCms.createProfile('sRGB'), renderingIntent=0, outputMode='RGBA')
            sys.stdout.buffer.write(out.tobytes())
            """, [raw, "\(image.width)", "\(image.height)", iccFile])
        let source = SourceImage(width: image.width, height: image.height, pixels: image.pixels, colorModel: .rgba, iccProfile: profile, orientation: .up)
        let converted = try source.convertedToSRGB()
        XCTAssertLessThanOrEqual(Self.largestDifference(converted.pixels, [UInt8](reference), channels: [0, 1, 2, 3]), 2, "against Pillow's ImageCms")
        XCTAssertEqual(stride(from: 3, to: converted.pixels.count, by: 4).map { converted.pixels[$0] },
                       stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }, "alpha is kept as it was")
        XCTAssertGreaterThan(Self.largestDifference(converted.pixels, image.pixels, channels: [0, 1, 2]), 20,
                             "Adobe RGB's saturated colours must move when converted to sRGB")
    }

    func testCMYKJPEGWithEmbeddedProfileConvertsAsPillowsImageCmsDoes() throws {
        let data = try Fixture.data("cmyk-icc.jpg")
        var source = try CMYKJPEG.decode(data)
        XCTAssertEqual(source.colorModel, .invertedCMYK, "ImageMagick writes Adobe-marked CMYK")
        source.iccProfile = try Self.embeddedProfile("cmyk-icc.jpg")
        let plain = try SourceImage(width: source.width, height: source.height, pixels: source.pixels, colorModel: source.colorModel,
                                    iccProfile: nil, orientation: .up).convertedToSRGB()
        let converted = try source.convertedToSRGB()
        let reference = try Pillow.run("""
            import io, sys
            from PIL import Image, ImageCms
            image = Image.open(sys.argv[1])
            profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info['icc_profile']))
            out = ImageCms.profileToProfile(image, profile, ImageCms.createProfile('sRGB'), renderingIntent=0, outputMode='RGB')
            sys.stdout.buffer.write(out.convert('RGBA').tobytes())
            """, [Fixture.directory.appendingPathComponent("cmyk-icc.jpg").path])
        XCTAssertEqual(reference.count, converted.pixels.count)
        XCTAssertLessThanOrEqual(Self.largestDifference(converted.pixels, [UInt8](reference), channels: [0, 1, 2, 3]), 2, "against Pillow's ImageCms")
        XCTAssertGreaterThan(Self.largestDifference(converted.pixels, plain.pixels, channels: [0, 1, 2]), 20,
                             "the profile's separation differs from the plain formula: it must have been used")
    }

    func testCMYKWithoutAProfileUsesTheJPEGDecodersFormula() throws {
        let data = try Fixture.data("cmyk.jpg")
        let converted = try CMYKJPEG.decode(data).convertedToSRGB()
        XCTAssertEqual(converted.pixels, try DecoderRegistry.standard.decode(data).pixels)
    }

    func testGrayProfileOnRGBAPixelsOfAGrayJPEGIsIgnored() throws {
        let image = try RGBAImage.fixture("gray-icc.jpg")
        let source = SourceImage(width: image.width, height: image.height, pixels: image.pixels, colorModel: .rgba,
                                 iccProfile: try Self.embeddedProfile("gray-icc.jpg"), orientation: .up)
        XCTAssertEqual(try source.convertedToSRGB(), image)
    }

    func testProfilesOfAnotherColourSpaceOrUnreadableAreIgnored() throws {
        let rgba = try RGBAImage.fixture("adobe-rgb.png")
        let cmykProfile = try Self.embeddedProfile("cmyk-icc.jpg"), rgbProfile = try Self.embeddedProfile("adobe-rgb.png")
        for profile in [cmykProfile, Array("not an ICC profile at all".utf8), []] {
            let source = SourceImage(width: rgba.width, height: rgba.height, pixels: rgba.pixels, colorModel: .rgba, iccProfile: profile, orientation: .up)
            XCTAssertEqual(try source.convertedToSRGB(), rgba, "a \(profile.count)-byte profile lcms cannot apply to RGB")
        }
        let cmykData = try Fixture.data("cmyk.jpg")
        var cmyk = try CMYKJPEG.decode(cmykData)
        cmyk.iccProfile = rgbProfile
        XCTAssertEqual(try cmyk.convertedToSRGB().pixels, try DecoderRegistry.standard.decode(cmykData).pixels,
                       "an RGB profile on CMYK pixels: the plain formula")
    }

    // MARK: Helpers

    /// The ICC profile embedded in fixture `name`, as Pillow reads it.
    private static func embeddedProfile(_ name: String) throws -> [UInt8] {
        let profile = try Pillow.run("import sys; from PIL import Image; sys.stdout.buffer.write(Image.open(sys.argv[1]).info['icc_profile'])",
                                     [Fixture.directory.appendingPathComponent(name).path])
        XCTAssertGreaterThan(profile.count, 128, "\(name) embeds a profile")
        return [UInt8](profile)
    }

    /// The largest difference of `channels` between two RGBA8 buffers, over pixels visible in both.
    private static func largestDifference(_ a: [UInt8], _ b: [UInt8], channels: [Int]) -> Int {
        guard a.count == b.count else { return .max }
        var worst = 0
        for i in stride(from: 0, to: a.count, by: 4) where a[i + 3] != 0 || b[i + 3] != 0 {
            for c in channels { worst = max(worst, abs(Int(a[i + c]) - Int(b[i + c]))) }
        }
        return worst
    }
}
