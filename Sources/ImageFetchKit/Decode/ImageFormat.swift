/// An image container format, as named by its magic bytes.
///
/// A value, not an enum, so that a format is declared in its own folder under `Decode/` beside its
/// sniffing rule and decoder (see `ImageFormatSpec` and Decode/README.md); `allCases` lists them.
///
/// Each is a constant the compiler lays out in the binary: a cache hit, which needs only the names
/// and numbers, runs no code to make one and never builds the specs.
public struct ImageFormat: Sendable, CustomStringConvertible {
    /// The short name: what the index stores, `cache ls` prints, `--format` takes ("jpeg", "jxl").
    public let rawValue: String
    /// The name people use for the format: "JPEG", "WebP", "JPEG XL".
    public let displayName: String
    /// The file extension a cached file of this format gets, so a printed path is usable as is.
    public let fileExtension: String
    /// The format's number in an entry's stamp (`EntryStamp`): fixed for good, so that existing
    /// caches read; a new format takes a number no other format has had.
    let stampCode: UInt8
    /// The format's `ImageFormatSpec` (a static, made at its first use).
    private let declaredSpec: @Sendable () -> ImageFormatSpec

    init(
        rawValue: String, displayName: String, fileExtension: String, stampCode: UInt8,
        spec: @escaping @Sendable () -> ImageFormatSpec
    ) {
        self.rawValue = rawValue
        self.displayName = displayName
        self.fileExtension = fileExtension
        self.stampCode = stampCode
        self.declaredSpec = spec
    }

    /// How the format is recognised, decoded and asked for.
    var spec: ImageFormatSpec { declaredSpec() }

    public var description: String { rawValue }

    /// The formats the decoder registry can decode, in the order messages list them; the rest are
    /// only recognised to name them in errors.
    public static let decodable: [ImageFormat] = allCases.filter { $0.spec.decoder != nil }

    /// "JPEG, PNG, … and ICO": the decodable formats, for messages.
    static func listed(_ formats: [ImageFormat], conjunction: String) -> String {
        let names = formats.map(\.displayName)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}

extension ImageFormat: RawRepresentable, Codable {
    /// The known format named `rawValue`, or nil.
    public init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }
}

extension ImageFormat: Hashable {
    // The stamp code is as unique as the name (ImageFormatTests holds both to it) and cheaper to compare.
    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool { lhs.stampCode == rhs.stampCode }
    public func hash(into hasher: inout Hasher) { hasher.combine(stampCode) }
}
