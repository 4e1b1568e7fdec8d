/// A `--name` template: literal text and `{field}`s, rendered into a file name inside an output
/// directory for each image (`{name}`, `{sha256}.{ext}`, `{host}/{path}`).
///
/// Parsed once, before any load: an unknown field, an unclosed brace, an absolute template or a
/// literal `..` folder is refused here, so a template that would always leave the directory
/// never starts a run. What a field's value could do (a URL path with `..`) is checked per image.
public struct OutputNameTemplate: Sendable, Equatable {
    /// The fields a template may use.
    public enum Field: String, Sendable, CaseIterable {
        /// The URL's last path segment, decoded and made safe, with the sniffed format's extension.
        case name
        /// That segment without its extension.
        case stem
        /// The sniffed format's extension (jpg, png, webp, …), without a dot.
        case ext
        /// The URL's host.
        case host
        /// The URL's path, decoded, its folders kept: each segment made safe.
        case path
        /// SHA-256 of the image's bytes, 64 hex characters.
        case sha256
        /// The cache key's hash (the cached file's name without its extension).
        case key
        /// The format's name (jpeg, png, …).
        case format
        case width
        case height
        /// The URL's line in a prefetch list; elsewhere the same as `index`.
        case line
        /// The URL's position among those the run took: 1 for the first.
        case index
    }

    enum Part: Sendable, Equatable {
        case literal(String)
        case field(Field)
    }

    /// The template as given.
    public let text: String
    let parts: [Part]

    /// The default: the URL's last segment with the sniffed format's extension.
    public static let standard = OutputNameTemplate(text: "{name}", parts: [.field(.name)])

    private init(text: String, parts: [Part]) {
        self.text = text
        self.parts = parts
    }

    public init(parsing text: String) throws(OutputError) {
        self.text = text
        var parts: [Part] = []
        var literal = ""
        var rest = text[...]
        while let character = rest.popFirst() {
            switch character {
            case "{":
                guard let close = rest.firstIndex(of: "}") else { throw .badTemplate(text, reason: "a '{' is never closed") }
                let name = String(rest[..<close])
                guard let field = Field(rawValue: name) else {
                    let known = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
                    throw .badTemplate(text, reason: "{\(name)} is not a field; the fields are \(known)")
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.field(field))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw .badTemplate(text, reason: "a '}' has no '{'")
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        if parts.isEmpty { throw .badTemplate(text, reason: "it is empty") }
        self.parts = parts
        if text.hasPrefix("/") { throw .badTemplate(text, reason: "it is an absolute path; names are made inside the output directory") }
        if Self.literalFolders(of: parts).contains(where: { $0 == ".." || $0 == "." }) {
            throw .badTemplate(text, reason: "a '.' or '..' folder would leave the output directory or name it")
        }
    }

    /// Whether rendering needs the image's SHA-256 (which costs a read of the whole file).
    public var usesSHA256: Bool { parts.contains(.field(.sha256)) }

    /// The folders and file name that are literal text whole, between slashes, in `parts`.
    private static func literalFolders(of parts: [Part]) -> [String] {
        var segments: [String] = []
        var current = "", isLiteral = true
        for part in parts {
            switch part {
            case .field:
                isLiteral = false
            case .literal(let text):
                for (index, piece) in text.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
                    if index > 0 {
                        if isLiteral { segments.append(current) }
                        current = ""
                        isLiteral = true
                    }
                    current += piece
                }
            }
        }
        if isLiteral { segments.append(current) }
        return segments
    }
}
