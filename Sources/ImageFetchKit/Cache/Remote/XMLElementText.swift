/// The text of one element of a small XML reply, found by its tags: what the S3 and STS replies
/// are read for (an error's `Code` and `Message`, temporary credentials) and no more. FoundationXML
/// is not linked, and these replies have no attributes, namespaces or repeats that matter here.
enum XMLElementText {
    /// The text of the first `<name>…</name>` in `text`, trimmed, its XML entities decoded; nil
    /// when there is none.
    static func first(_ name: String, in text: String) -> String? {
        guard let open = text.firstRange(of: "<\(name)>"),
              let close = text[open.upperBound...].firstRange(of: "</\(name)>")
        else { return nil }
        return decodingEntities(String(text[open.upperBound..<close.lowerBound].trimmingWhitespace()))
    }

    /// The five predefined entities; `&amp;` last, so `&amp;lt;` stays `&lt;`.
    private static func decodingEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'")
            .replacing("&amp;", with: "&")
    }
}
