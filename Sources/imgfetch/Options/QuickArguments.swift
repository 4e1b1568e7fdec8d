/// A command line read without argument-parser, for the short forms scripts run most often.
///
/// Why: argument-parser finds a command's options by reflecting over its properties, and in this
/// static binary each of the Swift runtime type lookups that takes scans every protocol
/// conformance record: 2.2 ms of a 7.4 ms `get` cache hit, 1.3 ms of a 16.5 ms warm `prefetch`
/// of 1000 URLs. A command reads its common forms with this first and leaves everything else,
/// help and every mistake included, to argument-parser; `assertQuickParserAgrees` (in the
/// command line's tests) checks that whatever is read here means the same to argument-parser.
///
/// What it takes: arguments that do not start with "-", and "-" (positionals); the given flags and
/// options, by any of their spellings, each at most once; an option's value as the next argument
/// or after "=" (long spellings only), never empty and never starting with "-" unless it is "-"
/// itself. Anything else makes the whole command line unreadable here.
struct QuickArguments {
    /// The arguments that are not flags or options, in order.
    private(set) var positionals: [String] = []
    /// The flags and options given, by their first spelling, and beside each its value ("" for
    /// a flag; a value is never empty). Two arrays of strings rather than one of pairs: the
    /// runtime would have to build a tuple type's metadata at every start (80k instructions).
    private var names: [String] = []
    private var values: [String] = []

    /// Reads `arguments`, where `flags` and `options` list each one's spellings, first its name
    /// (e.g. `["--quiet", "-q"]`); nil when any argument is not of the forms above.
    init?(_ arguments: some Collection<String>, flags: [[String]], options: [[String]]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            var spelling = argument, attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                spelling = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            if let flag = flags.first(where: { $0.contains(spelling) }) {
                guard attached == nil, !has(flag[0]) else { return nil }
                names.append(flag[0])
                values.append("")
            } else if let option = options.first(where: { $0.contains(spelling) }) {
                guard !has(option[0]), let value = attached ?? rest.popFirst(), Self.isValue(value) else { return nil }
                names.append(option[0])
                values.append(value)
            } else {
                return nil
            }
        }
    }

    /// Whether the flag or option named `name` was given.
    func has(_ name: String) -> Bool { names.contains(name) }

    /// The value given to the option named `name`.
    func value(of name: String) -> String? {
        guard let index = names.firstIndex(of: name), !values[index].isEmpty else { return nil }
        return values[index]
    }

    /// What argument-parser also takes as an option's value.
    private static func isValue(_ text: String) -> Bool {
        text == "-" || (!text.isEmpty && !text.hasPrefix("-"))
    }
}
