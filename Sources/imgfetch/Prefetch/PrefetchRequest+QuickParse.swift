extension PrefetchRequest {
    /// Reads the short command lines scripts use most — the list with `-j`/`--jobs`,
    /// `--cache-dir`, `--json`, `-q`/`--quiet`, `--cache-only` or the transform flags — without argument-parser (see
    /// `QuickArguments`). Returns nil for anything else, and for what `validate()` refuses:
    /// `PrefetchCommand` parses those.
    init?(quickParsing arguments: some Collection<String>) {
        guard let line = QuickArguments(
            arguments, flags: LoadingSettings.quickFlags + [["--json"]], options: LoadingSettings.quickOptions + [["--jobs", "-j"]]),
            line.positionals.count == 1, let settings = LoadingSettings(line)
        else { return nil }
        self.init(list: line.positionals[0], json: line.has("--json"), settings: settings)
        if let jobs = line.value(of: "--jobs") {
            guard let number = Int(jobs) else { return nil }
            self.jobs = number
        }
        guard (try? validate()) != nil else { return nil }
    }
}
