import FoundationEssentials
import Glibc

/// One image file as the registry sees it: what `imgfetch info FILE` reports.
public struct ImageFile: Sendable, Hashable {
    /// The path as given.
    public let path: String
    /// The file's size in bytes.
    public let byteCount: Int
    public let info: ImageInfo

    /// Why a file could not be inspected; the description names the file, then the cause.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The file could not be read (missing, a directory, no permission).
        case unreadable(path: String, reason: String)
        /// The bytes were read but are not a usable image.
        case notAnImage(path: String, DecodeError)

        public var path: String {
            switch self {
            case .unreadable(let path, _), .notAnImage(let path, _): path
            }
        }

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "\(path): The file cannot be read: \(reason)."
            case .notAnImage(let path, let cause): "\(path): \(cause)"
            }
        }
    }

    /// Reads the file at `path` and validates it (header, limits, structure); with `decodePixels`
    /// it also decodes every pixel (keeping none). Blocking file I/O: call it off any coordinating actor.
    public init(
        path: String, registry: DecoderRegistry = .standard, limits: DecodeLimits = DecodeLimits(), decodePixels: Bool = false
    ) throws(ImageFile.Error) {
        let data = try Self.read(path)
        do {
            info = decodePixels ? try registry.verifyDecoding(data, limits: limits) : try registry.validate(data, limits: limits)
        } catch {
            throw .notAnImage(path: path, error)
        }
        self.path = path
        self.byteCount = data.count
    }

    private static func read(_ path: String) throws(ImageFile.Error) -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .unreadable(path: path, reason: "there is no such file")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw .unreadable(path: path, reason: "it is a directory") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch let error as CocoaError where error.code == .fileReadNoPermission {
            throw .unreadable(path: path, reason: "permission is denied")
        } catch {
            throw .unreadable(path: path, reason: SystemErrorText.describe(error))
        }
    }
}
