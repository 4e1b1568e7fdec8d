import FoundationEssentials

/// The two forms of a URL imgfetch uses besides the one it was given.
///
/// Parsing (`URL(string:)`) already percent-encodes spaces and non-ASCII characters in the path
/// and query as browsers do (`a b.png` → `a%20b.png`, `ü` → `%C3%BC`), so the request and the
/// cache key see one spelling whichever the user typed.
extension URL {
    /// The URL for libcurl: the parsed form, except an internationalised host name, which goes as
    /// UTF-8 (parsing percent-encodes it) so libcurl converts it to its IDNA form (punycode, with
    /// libidn2) exactly as the curl tool does.
    public var requestString: String {
        let text = absoluteString
        guard let encoded = host(percentEncoded: true), encoded.contains("%"),
              let decoded = host(percentEncoded: false), let range = text.firstRange(of: encoded)
        else { return text }
        var request = text
        request.replaceSubrange(range, with: decoded)
        return request
    }

    /// The URL safe to print, store and key the cache with: a password in it (`user:secret@`)
    /// replaced by `***`, so it never reaches stderr, JSON, the index or `cache ls`. The request
    /// itself still sends it.
    public var redactedString: String {
        URL.redacting(absoluteString)
    }

    /// `text` (a URL, parsed or not) with the password of its user information replaced by `***`.
    public static func redacting(_ text: String) -> String {
        // Most URLs have no user information: one quick scan, and they are returned as they are.
        guard text.utf8.contains(UInt8(ascii: "@")), let authority = authorityRange(in: text) else { return text }
        guard let at = text[authority].lastIndex(of: "@"),
              let colon = text[authority.lowerBound..<at].firstIndex(of: ":")
        else { return text }
        var redacted = text
        redacted.replaceSubrange(text.index(after: colon)..<at, with: "***")
        return redacted
    }

    /// Where the authority (`user:password@host:port`) of the URL `text` lies: from after its
    /// "://" to the first "/", "?" or "#", or the end; nil without a "://".
    static func authorityRange(in text: String) -> Range<String.Index>? {
        guard let scheme = text.firstRange(of: "://") else { return nil }
        let end = text[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        return scheme.upperBound..<end
    }
}
