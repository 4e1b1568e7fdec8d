extension GetRequest {
    /// Reads the short command lines scripts use most — URLs with `--cache-dir`, `-o`/`--output`,
    /// `--json`, `-q`/`--quiet` or `--cache-only`, each at most once — without argument-parser.
    /// Returns nil for anything else, `--help` and every error included, and `GetCommand` parses it.
    ///
    /// Why: argument-parser finds a command's options by reflecting over its properties, and in
    /// this static binary each of those Swift runtime type lookups scans every protocol
    /// conformance record; that was 2.2 ms of a 7.4 ms cache hit, more than the whole lookup.
    /// What this accepts, `GetCommand` accepts with the same meaning: `GetQuickParseTests`
    /// compares the two on every combination of these arguments and their near misses.
    init?(quickParsing arguments: some Collection<String>) {
        self.init(urls: [])
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-") else {
                urls.append(argument)
                continue
            }
            let (name, attached) = Self.split(argument)
            // A flag takes no value, and nothing may be given twice.
            switch name {
            case "--json":
                guard attached == nil, !json else { return nil }
                json = true
            case "-q", "--quiet":
                guard attached == nil, !quiet else { return nil }
                quiet = true
            case "--cache-only":
                guard attached == nil, !loadOptions.cacheOnly else { return nil }
                loadOptions.cacheOnly = true
            case "--cache-dir":
                guard cacheDir == nil, let value = attached ?? rest.popFirst(), Self.isPlainValue(value) else { return nil }
                cacheDir = value
            case "-o", "--output":
                guard output == nil, let value = attached ?? rest.popFirst(), value == "-" || Self.isPlainValue(value) else {
                    return nil
                }
                output = value
            default:
                return nil
            }
        }
        guard (try? validate()) != nil else { return nil }
    }

    /// `--name=value` as its name and value; anything else as itself and nil.
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// A value argument-parser also takes as one: not empty and not option-like.
    private static func isPlainValue(_ value: String) -> Bool {
        !value.isEmpty && !value.hasPrefix("-")
    }
}
