import FoundationEssentials

/// The facts one image gives a template's fields.
public struct OutputFacts: Sendable {
    public var url: String
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// The cache key's hash; nil when the image has no cached file (`--no-disk-cache`).
    public var key: String?
    /// The URL's position among those the run took (1 for the first), and its line in a list
    /// (the position when there is no list).
    public var index: Int
    public var line: Int
    /// Filled in by `OutputFolder` when the template needs it.
    var sha256: String?

    public init(url: String, format: ImageFormat, width: Int, height: Int, key: String?, index: Int, line: Int? = nil) {
        self.url = url
        self.format = format
        self.width = width
        self.height = height
        self.key = key
        self.index = index
        self.line = line ?? index
    }
}

extension OutputNameTemplate {
    /// The relative path this template gives `facts`: folders separated by "/", each made safe.
    /// Throws when the result would leave the directory or is empty.
    func name(for facts: OutputFacts) throws(OutputError) -> String {
        var name = ""
        for part in parts {
            switch part {
            case .literal(let text): name += text
            case .field(let field): name += value(of: field, for: facts)
            }
        }
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == ".." }) { throw .nameLeavesDirectory(name: name) }
        if segments.contains(where: { $0.isEmpty || $0 == "." }) {
            throw .unusableName(name: name, reason: "it has an empty or '.' folder or file name")
        }
        return name
    }

    private func value(of field: Field, for facts: OutputFacts) -> String {
        let url = URL(string: facts.url)
        // Decoded segments: an encoded "/" stays inside its segment (and is then made safe).
        let segments = (url?.pathComponents ?? []).filter { $0 != "/" }.map(SafeName.segment)
        let last = segments.last ?? "image"
        let stem = SafeName.stem(of: last)
        switch field {
        case .name: return stem + "." + facts.format.fileExtension
        case .stem: return stem
        case .ext: return facts.format.fileExtension
        case .host: return SafeName.segment(url?.host ?? "host")
        // A ".." segment stays as it is: the rendered name is refused for that URL, not rewritten.
        case .path: return segments.isEmpty ? "image" : segments.joined(separator: "/")
        case .sha256: return facts.sha256 ?? ""
        case .key: return facts.key ?? ""
        case .format: return facts.format.rawValue
        case .width: return String(facts.width)
        case .height: return String(facts.height)
        case .line: return String(facts.line)
        case .index: return String(facts.index)
        }
    }
}

/// Makes text from a URL safe as one file or folder name.
enum SafeName {
    /// `text` with "/", NUL and control characters replaced by "_", and cut to 200 bytes so a name
    /// with its extension stays within the 255 a Linux file system allows. "." and ".." are kept:
    /// the caller refuses names containing them rather than silently writing somewhere else.
    static func segment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "/" || scalar.value < 0x20 || scalar.value == 0x7F {
                out.unicodeScalars.append("_")
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        while out.utf8.count > 200 { out.removeLast() }
        return out.isEmpty ? "_" : out
    }

    /// `name` without its last extension ("photo.final.jpeg" → "photo.final"); a name that only
    /// starts with a dot keeps it.
    static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
