import FoundationEssentials
@testable import ImageFetchKit

extension FuzzTarget {
    /// The transform flags' text (`--resize`, `--fit`, `--format`, `--quality`, one a line, then a
    /// source size) as the command line reads them, and the geometry of every spec that parses:
    /// the normal form must read back as the same size, and the geometry must stay inside the
    /// source, never be empty, never enlarge without `--upscale`, and decode at least one pixel.
    static let transformSpec = FuzzTarget(name: "transformspec", summary: "resize-spec parsing and geometry", seedSuffixes: []) { data in
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func line(_ index: Int) -> String? { index < lines.count && !lines[index].isEmpty ? lines[index] : nil }
        let quality = line(3).flatMap { Int($0) }
        guard let spec = try? TransformSpec.parse(
            resize: line(0), fit: line(1), upscale: data.first.map { $0 & 1 == 1 } ?? false, format: line(2), quality: quality,
            firstFrame: data.last.map { $0 & 1 == 1 } ?? false, maxPixels: 100_000_000)
        else { return }
        let normal = spec.description
        precondition(!normal.contains("\n"), "a normal form with a line break: \(normal)")
        if spec.resizes {
            let size = normal.split(separator: " ").first.map(String.init) ?? ""
            let reread = try? TransformSpec.parseSize(size)
            precondition(reread?.width == spec.width && reread?.height == spec.height, "\(normal) does not read back as its size")
        }
        let sides = line(4).map { $0.split(separator: "x").compactMap { Int($0) } } ?? []
        guard sides.count == 2, (1...100_000).contains(sides[0]), (1...100_000).contains(sides[1]) else { return }
        let (w0, h0) = (sides[0], sides[1])
        let geometry = TransformGeometry(spec: spec, sourceWidth: w0, sourceHeight: h0)
        precondition(geometry.width >= 1 && geometry.height >= 1, "an empty output for \(normal) of \(w0)x\(h0)")
        let window = geometry.window
        precondition(window.x >= 0 && window.y >= 0 && window.width > 0 && window.height > 0, "a window outside \(w0)x\(h0)")
        precondition(window.x + window.width <= Double(w0) + 1e-6 && window.y + window.height <= Double(h0) + 1e-6, "a window past \(w0)x\(h0)")
        if !spec.upscale {
            // A side of the window under a pixel (a cover box far wider than tall) still gives one.
            precondition(Double(geometry.width) <= max(1, window.width + 0.5) && Double(geometry.height) <= max(1, window.height + 0.5),
                         "\(normal) enlarged \(w0)x\(h0) to \(geometry.width)x\(geometry.height)")
        }
        for orientation in ImageOrientation.allCases {
            let minimum = geometry.minimumStoredDecodeSize(sourceWidth: w0, sourceHeight: h0, orientation: orientation)
            precondition(minimum.width >= 1 && minimum.height >= 1, "an empty decode for \(normal)")
        }
    }
}
