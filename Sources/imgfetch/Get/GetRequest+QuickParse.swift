extension GetRequest {
    /// Reads the short command lines scripts use most — URLs with `--cache-dir`, `-o`/`--output`,
    /// `--json`, `-q`/`--quiet`, `--cache-only` or the transform flags — without argument-parser (see `QuickArguments`).
    /// Returns nil for anything else, and for what `validate()` refuses: `GetCommand` parses those.
    init?(quickParsing arguments: some Collection<String>) {
        guard let line = QuickArguments(
            arguments, flags: LoadingSettings.quickFlags + [["--json"]], options: LoadingSettings.quickOptions + [["--output", "-o"]])
            , let settings = LoadingSettings(line)
        else { return nil }
        self.init(urls: line.positionals, output: line.value(of: "--output"), json: line.has("--json"), settings: settings)
        guard (try? validate()) != nil else { return nil }
    }
}
