import XCTest
@testable import ImageFetchKit

/// `DecoderRegistry.animationReader`: which files get a reader, and the frames, durations and
/// loop counts of the animated fixtures against the reference tools' reading of them.
final class AnimationReaderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    private func reader(_ name: String, limits: DecodeLimits = DecodeLimits()) throws -> any AnimationReading {
        let reader = try registry.animationReader(for: try Fixture.data(name), limits: limits)
        return try XCTUnwrap(reader, "\(name) should have an animation reader")
    }

    func testStillImagesAndFramesThatAreNoAnimationGetNoReader() throws {
        for name in ["baseline.jpg", "static.gif", "palette.png", "lossy.webp", "alpha.webp", "still.avif",
                     "multipage.tif", "icons.ico", "bmp24.bmp", "still.heic", "lossy.jxl", "container.jxl"] {
            XCTAssertNil(try registry.animationReader(for: try Fixture.data(name), limits: DecodeLimits()), name)
        }
    }

    func testFramesDurationsAndLoopCountsOfTheAnimatedFixtures() throws {
        let expected: [(name: String, width: Int, height: Int, durations: [Int], loop: Int)] = [
            ("animated.gif", 32, 24, [100, 100, 100], 0),
            ("animated.png", 32, 24, [100, 100, 100, 100], 0),
            ("animated-default.png", 32, 24, [100, 100, 100], 0),
            ("animated.webp", 32, 24, [100, 100, 100], 0),
            ("sequence.avif", 32, 24, [33, 33, 33], 0),
            ("animated.jxl", 32, 24, [100, 100, 100], 0),
            ("gif-dispose.gif", 16, 12, [100, 200, 0, 1000, 0], 4),
            ("apng-dispose-blend.png", 16, 12, [100, 25, 30, 0, 333], 2),
            ("apng-first-previous.png", 8, 8, [100, 100], 0),
            ("webp-dispose-blend.webp", 16, 12, [100, 50, 30, 40], 3),
        ]
        for (name, width, height, durations, loop) in expected {
            let reader = try reader(name)
            XCTAssertEqual([reader.canvasWidth, reader.canvasHeight, reader.frameCount, reader.loopCount],
                           [width, height, durations.count, loop], name)
            let frames = try readAllFrames(reader)
            XCTAssertEqual(frames.map(\.duration), durations, name)
            XCTAssertTrue(frames.allSatisfy { $0.image.width == width && $0.image.height == height }, name)
            XCTAssertNil(try reader.nextFrame(), "\(name): nothing after the last frame")
        }
    }

    func testGIFFramesAreComposedAsImageMagickCoalescesThem() throws {
        for name in ["animated.gif", "gif-dispose.gif"] {
            let reference = try ReferenceAnimation.imageMagickCoalesce(name)
            let frames = try readAllFrames(try reader(name))
            XCTAssertEqual(frames.count, reference.frames.count, name)
            for (index, (frame, expected)) in zip(frames, reference.frames).enumerated() {
                assertFrame(frame.image, matches: expected, tolerance: 0, "\(name) frame \(index + 1)")
            }
        }
    }

    /// Pillow reports a GIF's raw NETSCAPE repeat count (3 for four plays) and composes a frame
    /// after a cleared one over the cleared area's index as an opaque colour where browsers and
    /// ImageMagick show transparency; so timing is compared with Pillow, pixels with ImageMagick.
    func testGIFTimingAgreesWithPillow() throws {
        for name in ["animated.gif", "gif-dispose.gif"] {
            let reference = try ReferenceAnimation.pillow(name)
            let reader = try reader(name)
            XCTAssertEqual(try readAllFrames(reader).map(\.duration), reference.durations, name)
            let repeats = try XCTUnwrap(reference.loop, name)
            XCTAssertEqual(reader.loopCount, repeats == 0 ? 0 : repeats + 1, name)
        }
    }

    /// Pixels and delays against apngdis; the loop count against Pillow. (Pillow 9.4 pastes a
    /// blend_op over frame through its own alpha, which makes an opaque canvas partly transparent.)
    func testAPNGFramesAreComposedAsApngdisComposesThem() throws {
        for name in ["animated.png", "animated-default.png", "apng-dispose-blend.png", "apng-first-previous.png"] {
            let reference = try ReferenceAnimation.apngdis(name)
            let reader = try reader(name)
            let frames = try readAllFrames(reader)
            XCTAssertEqual(frames.count, reference.frames.count, name)
            for (index, (frame, expected)) in zip(frames, reference.frames).enumerated() {
                assertFrame(frame.image, matches: expected, tolerance: 1, "\(name) frame \(index + 1)")
            }
            XCTAssertEqual(frames.map(\.duration), reference.durations, name)
            XCTAssertEqual(reader.loopCount, try ReferenceAnimation.pillow(name).loop, name)
        }
    }

    func testWebPFramesAreComposedAsPillowComposesThem() throws {
        for name in ["animated.webp", "webp-dispose-blend.webp"] {
            let reference = try ReferenceAnimation.pillow(name)
            let reader = try reader(name)
            let frames = try readAllFrames(reader)
            XCTAssertEqual(frames.count, reference.frames.count, name)
            for (index, (frame, expected)) in zip(frames, reference.frames).enumerated() {
                assertFrame(frame.image, matches: expected, tolerance: 0, "\(name) frame \(index + 1)")
            }
            XCTAssertEqual(frames.map(\.duration), reference.durations, name)
            XCTAssertEqual(reader.loopCount, reference.loop, name)
        }
    }

    /// animated.jxl is cjxl's lossless conversion of animated.gif: its frames are the GIF's, as
    /// ImageMagick composes them.
    func testJXLAnimationFramesAreTheLosslessGIFFrames() throws {
        let reference = try ReferenceAnimation.imageMagickCoalesce("animated.gif")
        let frames = try readAllFrames(try reader("animated.jxl"))
        XCTAssertEqual(frames.count, reference.frames.count)
        for (index, (frame, expected)) in zip(frames, reference.frames).enumerated() {
            assertFrame(frame.image, matches: expected, tolerance: 0, "animated.jxl frame \(index + 1)")
        }
    }

    func testAVIFSequenceFramesMatchAvifdec() throws {
        let reader = try reader("sequence.avif")
        let reference = try ReferenceAnimation.avifdec("sequence.avif", frameCount: reader.frameCount)
        let frames = try readAllFrames(reader)
        XCTAssertEqual(frames.count, reference.frames.count)
        for (index, (frame, expected)) in zip(frames, reference.frames).enumerated() {
            assertFrame(frame.image, matches: expected, tolerance: 2, "sequence.avif frame \(index + 1)")
        }
        XCTAssertEqual(frames.map(\.duration), reference.durations)
    }
}
