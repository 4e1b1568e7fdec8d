extension StringProtocol {
    /// Whether the text is one or more ASCII digits and nothing else: what HTTP's numbers
    /// (delta-seconds, a date's fields) allow, where `Int(_:)` would also take a sign.
    package var isASCIIDigits: Bool {
        !isEmpty && utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}
