import Foundation
import XCTest
@testable import ImageFetchKit

/// An animation as a reference tool composes it: every frame on the whole canvas, RGBA, with the
/// timing the tool reports.
struct ReferenceAnimation {
    var frames: [DecodedImage]
    /// Milliseconds per frame, when the tool reports them.
    var durations: [Int]?
    /// The tool's loop value as it reports it (Pillow: GIF's NETSCAPE repeat count, WebP's and
    /// APNG's loop count); nil when it reports none.
    var loop: Int?

    /// ImageMagick's `convert FILE -coalesce`, each frame written as an RGBA PNG.
    static func imageMagickCoalesce(_ name: String) throws -> ReferenceAnimation {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        try tool.run("/usr/bin/convert", [ReferenceTool.fixture(name), "-coalesce", "PNG32:" + tool.path("frame-%d.png")])
        return ReferenceAnimation(frames: try frames(in: tool), durations: nil, loop: nil)
    }

    /// Pillow's reading: each frame `seek`ed, loaded and converted to RGBA; `info["duration"]`
    /// per frame and `info["loop"]`.
    static func pillow(_ name: String) throws -> ReferenceAnimation {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        let script = """
        import json, sys
        from PIL import Image
        image = Image.open(sys.argv[1])
        durations = []
        for index in range(getattr(image, 'n_frames', 1)):
            image.seek(index)
            image.load()
            durations.append(round(image.info.get('duration', 0) or 0))
            image.convert('RGBA').save(f'{sys.argv[2]}/frame-{index}.png')
        print(json.dumps({'durations': durations, 'loop': image.info.get('loop')}))
        """
        let output = try tool.pillow(script, [ReferenceTool.fixture(name), tool.directory.path])
        let summary = try JSONDecoder().decode(PillowSummary.self, from: output)
        return ReferenceAnimation(frames: try frames(in: tool), durations: summary.durations, loop: summary.loop)
    }

    /// apngdis (the APNG disassembler of the APNG reference tools): each frame composed on the
    /// canvas, and the delay it writes beside it. A default image that is not part of the
    /// animation (apngdis numbers it 0) is left out.
    static func apngdis(_ name: String) throws -> ReferenceAnimation {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        try FileManager.default.copyItem(atPath: ReferenceTool.fixture(name), toPath: tool.path("animation.png"))
        try tool.run("apngdis", [tool.path("animation.png"), "f"])
        var frames: [DecodedImage] = []
        var durations: [Int] = []
        while case let number = frames.count + 1, FileManager.default.fileExists(atPath: tool.path("f\(number).png")) {
            frames.append(try DecoderRegistry.standard.decode(Data(contentsOf: URL(fileURLWithPath: tool.path("f\(number).png")))))
            let delay = try String(contentsOfFile: tool.path("f\(number).txt"), encoding: .utf8)
            guard let match = delay.firstMatch(of: /delay=(\d+)\/(\d+)/), let numerator = Int(match.1), let denominator = Int(match.2) else {
                throw TestDataError(reason: "apngdis wrote no delay for frame \(number): \(delay)")
            }
            let seconds = denominator == 0 ? 100 : denominator
            durations.append((numerator * 1000 + seconds / 2) / seconds)
        }
        return ReferenceAnimation(frames: frames, durations: durations, loop: nil)
    }

    /// `avifdec --index I` for each frame, and the durations `avifdec --info` prints.
    static func avifdec(_ name: String, frameCount: Int) throws -> ReferenceAnimation {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        for index in 0..<frameCount {
            try tool.run("avifdec", ["--index", "\(index)", ReferenceTool.fixture(name), tool.path("frame-\(index).png")])
        }
        let info = String(decoding: try tool.run("avifdec", ["--info", ReferenceTool.fixture(name)]), as: UTF8.self)
        return ReferenceAnimation(frames: try frames(in: tool), durations: avifdecDurations(info), loop: nil)
    }

    private struct PillowSummary: Decodable {
        var durations: [Int]
        var loop: Int?
    }

    /// frame-0.png, frame-1.png, … decoded by the registry's PNG decoder.
    private static func frames(in tool: ReferenceTool) throws -> [DecodedImage] {
        var frames: [DecodedImage] = []
        while case let path = tool.path("frame-\(frames.count).png"), FileManager.default.fileExists(atPath: path) {
            frames.append(try DecoderRegistry.standard.decode(Data(contentsOf: URL(fileURLWithPath: path))))
        }
        return frames
    }

    /// From "30 timescales per second" and each "[duration 0.03 (1 timescales)]", milliseconds
    /// rounded to nearest.
    private static func avifdecDurations(_ info: String) -> [Int]? {
        guard let rate = info.firstMatch(of: /(\d+) timescales per second/).flatMap({ Int($0.1) }), rate > 0 else { return nil }
        return info.matches(of: /\[duration [0-9.]+ \((\d+) timescales\)\]/).compactMap { Int($0.1) }.map { ($0 * 1000 + rate / 2) / rate }
    }
}

/// Asserts that `frame` has the reference's size and every channel within `tolerance` (colour is
/// not compared where both are fully transparent).
func assertFrame(
    _ frame: RGBAImage, matches reference: DecodedImage, tolerance: Int, _ label: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    guard let image = DecodedImage(info: reference.info, width: frame.width, height: frame.height, pixels: frame.pixels) else {
        return XCTFail("\(label): the frame does not hold width × height × 4 bytes", file: file, line: line)
    }
    ReferenceDecoder.assertMatches(image, reference, tolerance: tolerance, label, file: file, line: line)
}

/// Every frame `reader` gives, until nil.
func readAllFrames(_ reader: any AnimationReading) throws -> [AnimationFrame] {
    var frames: [AnimationFrame] = []
    while let frame = try reader.nextFrame() { frames.append(frame) }
    return frames
}
