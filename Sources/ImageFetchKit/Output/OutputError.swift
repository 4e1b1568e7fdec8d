/// Why an image could not be written out under its name. Each case names the template, the URL
/// or the file; `description` is a sentence a user can act on.
public enum OutputError: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The template can never name a file inside the directory, or does not parse.
    case badTemplate(String, reason: String)
    /// For this image the template names a place outside the directory (a `..` in the URL's path).
    case nameLeavesDirectory(name: String)
    /// The name is empty, or a folder on its way is a link or not a folder.
    case unusableName(name: String, reason: String)
    /// Another image of this run took the name already.
    case nameTaken(name: String, by: String)
    /// The output directory cannot be used.
    case directoryUnusable(String, reason: String)
    /// The copy could not be written.
    case cannotWrite(path: String, reason: String)
    /// The cached image could not be read.
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .badTemplate(let text, let reason):
            "The name template '\(text)' cannot be used: \(reason)."
        case .nameLeavesDirectory(let name):
            "The name '\(name)' would leave the output directory; nothing written."
        case .unusableName(let name, let reason):
            "The name '\(name)' cannot be used: \(reason); nothing written."
        case .nameTaken(let name, let other):
            "The name '\(name)' is taken by \(other) in this run; nothing written (a template with {key} or {sha256} separates them)."
        case .directoryUnusable(let path, let reason):
            "The output directory \(path) cannot be used: \(reason)."
        case .cannotWrite(let path, let reason):
            "Cannot write \(path): \(reason)."
        case .cannotRead(let path, let reason):
            "Cannot read the cached image \(path): \(reason)."
        }
    }
}
