/// Finds an argument that argument-parser would take for a group of short options although it
/// cannot be one, such as a file named `-dash.png`.
///
/// Why: argument-parser splits `-dash.png` into `-d -a -s -h …`; the `-h` among them shows the
/// whole help and exits 0, and without one the message is about a missing argument. Neither
/// names the argument. A group is read as imgfetch's short options only when every letter is one.
enum ShortOptionGroups {
    /// Every short option any command declares: -q, -v, -o, -j, -H, -A, -b, -c and -h (help).
    static let declared: Set<Character> = ["q", "v", "o", "j", "H", "A", "b", "c", "h"]

    /// The first argument before `--` that starts with one "-", has more than one character after
    /// it, and is not made of declared short options (`-j` takes its number joined: `-j16`) nor a
    /// value that starts with a digit.
    static func firstImpossible(in arguments: some Sequence<String>) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { continue }
            if argument.hasPrefix("-j") { continue }
            // No option is a digit: `-5x10` is a value (`--resize -5x10`), its option says what is wrong.
            if argument.dropFirst().first?.isNumber == true { continue }
            if !argument.dropFirst().allSatisfy(declared.contains) { return argument }
        }
        return nil
    }
}
