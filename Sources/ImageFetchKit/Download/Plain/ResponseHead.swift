/// The status line and header fields of an HTTP/1.0 or HTTP/1.1 response, as `PlainHTTPFetch`
/// reads them. Anything it does not read plainly (another version, a folded line, a field without
/// a colon) is nil, and the fetch goes to libcurl, which has its own rules for such replies.
struct ResponseHead {
    var status: Int
    var fields: [(name: String, value: String)]
    /// HTTP/1.1, not 1.0.
    var isHTTP11: Bool

    /// Whether the server means to keep the connection open after this response: HTTP/1.1 without
    /// `Connection: close` (an HTTP/1.0 server's keep-alive is not worth its rules here).
    var keepsConnectionOpen: Bool {
        isHTTP11 && !fields.contains { field in
            field.name.lowercased() == "connection"
                && field.value.split(separator: ",").contains { $0.trimmingWhitespace().lowercased() == "close" }
        }
    }

    /// The most bytes a head may take before the plain client gives it to libcurl (libcurl's own
    /// limit for one response's headers is 300 KiB; images never come near either).
    static let maximumSize = 64 * 1024

    enum DeclaredLength: Equatable {
        /// No Content-Length: the body runs to the end of the connection.
        case none
        case bytes(Int)
        /// More than one Content-Length, or one that is not a plain number: left to libcurl.
        case unreadable
    }

    /// The body length the head declares.
    var declaredLength: DeclaredLength {
        switch count(of: "Content-Length") {
        case 0: return .none
        case 1:
            guard let declared = value(of: "Content-Length"), declared.isASCIIDigits, let length = Int(declared) else { return .unreadable }
            return .bytes(length)
        default: return .unreadable
        }
    }

    /// The value of the first field called `name` (any case), trimmed.
    func value(of name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// How many fields are called `name` (any case).
    func count(of name: String) -> Int {
        let wanted = name.lowercased()
        return fields.count { $0.name.lowercased() == wanted }
    }

    /// The number of bytes from the start of `bytes` through the blank line that ends a head
    /// (CRLF CRLF, or bare LFs as libcurl also accepts), or nil when it has not arrived yet.
    static func length(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            var next = newline + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "\r") { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            guard next < bytes.count else { return nil }
            index = next
        }
        return nil
    }

    /// Parses a head of `length(in:)` bytes.
    init?(_ bytes: UnsafeRawBufferPointer) {
        // Lines are split as bytes: in a Swift String "\r\n" is one character, not a "\n".
        var lines: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let content = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            guard let text = String(validating: content, as: UTF8.self) else { return nil }
            lines.append(text)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { return nil }
        // "HTTP/1.1 200 OK": the version, one space, a status of three digits from 100 to 599 (what
        // else libcurl makes of "000" or "600" is its own business), then a space or the end.
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
              parts[1].utf8.count == 3, parts[1].isASCIIDigits, let status = Int(parts[1]), (100...599).contains(status)
        else { return nil }
        self.status = status
        isHTTP11 = parts[0] == "HTTP/1.1"
        fields = []
        for line in lines.dropFirst() {
            guard let first = line.first, first != " ", first != "\t", let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else { return nil }
            fields.append((String(name), String(line[line.index(after: colon)...].trimmingWhitespace())))
        }
    }
}
