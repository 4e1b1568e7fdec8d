/// One JSON object on one line, keys in the order added (stable output a script can rely on).
struct JSONLine {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: String?) {
        fields.append(Self.quoted(key) + ":" + (value.map(Self.quoted) ?? "null"))
    }

    mutating func add(_ key: String, _ value: Int?) {
        fields.append(Self.quoted(key) + ":" + (value.map(String.init) ?? "null"))
    }

    mutating func add(_ key: String, _ value: Bool) {
        fields.append(Self.quoted(key) + ":" + (value ? "true" : "false"))
    }

    /// A value that is already JSON (a nested object or array).
    mutating func add(_ key: String, raw: String) {
        fields.append(Self.quoted(key) + ":" + raw)
    }

    var text: String { "{" + fields.joined(separator: ",") + "}" }

    static func quoted(_ string: String) -> String {
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
