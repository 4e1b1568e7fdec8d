extension StringProtocol {
    /// The text without its leading and trailing characters that `isTrimmed` accepts.
    /// (Foundation's `trimmingCharacters(in:)` is not in FoundationEssentials.)
    package func trimming(while isTrimmed: (Character) -> Bool) -> SubSequence {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return self[first...last]
    }

    /// The text without leading and trailing white space and newlines.
    package func trimmingWhitespace() -> SubSequence {
        trimming(while: \.isWhitespace)
    }
}
