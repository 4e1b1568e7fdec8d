import ArgumentParser
import Foundation
import ImageFetchKit

/// `imgfetch info FILE...`: what the decoder registry sees in each file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what the decoder registry sees in image files: format, size, frames and bytes.",
        discussion: """
            Each file is identified by its bytes (never its name), its header is probed and its \
            structure checked. A file that is not a usable image is reported on stderr and the \
            other files are still done.
            """
    )

    @Argument(help: ArgumentHelp("The image files to inspect.", valueName: "file"))
    var files: [String]

    @Flag(help: "Print one JSON object per file (keys: file, format, width, height, frames, bytes).")
    var json = false

    @Flag(help: "Also decode every pixel (every frame of an animation), not just the header and structure.")
    var decode = false

    func run() throws {
        var failures: [ExitStatus] = []
        for path in files {
            let file: ImageFile
            do {
                file = try ImageFile(path: path, decodePixels: decode)
            } catch {
                FileHandle.standardError.write(Data("imgfetch: \(error)\n".utf8))
                failures.append(Self.status(for: error))
                continue
            }
            print(json ? try jsonLine(file) : textLine(file))
        }
        let status = ExitStatus.combining(failures, total: files.count)
        if status != .success { throw status.exitCode }
    }

    private func textLine(_ file: ImageFile) -> String {
        let info = file.info
        let frames = info.frameCount == 1 ? "1 frame" : "\(info.frameCount) frames"
        return "\(file.path): \(info.format.rawValue) \(info.width)×\(info.height) \(frames) \(file.byteCount) bytes"
    }

    private func jsonLine(_ file: ImageFile) throws -> String {
        let line = JSONLine(
            file: file.path, format: file.info.format.rawValue, width: file.info.width,
            height: file.info.height, frames: file.info.frameCount, bytes: file.byteCount
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }

    private struct JSONLine: Encodable {
        var file: String
        var format: String
        var width: Int
        var height: Int
        var frames: Int
        var bytes: Int
    }

    private static func status(for error: ImageFile.Error) -> ExitStatus {
        switch error {
        case .unreadable: .fileError
        case .notAnImage: .notAnImage
        }
    }
}
