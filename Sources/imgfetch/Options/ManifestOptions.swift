import ArgumentParser

/// `--manifest FILE`, for `get` and `prefetch`.
struct ManifestOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Also write each URL's record (the keys of --json) to this file: JSON Lines, or CSV with a header when it ends in .csv.",
        valueName: "file"), completion: .file())
    var manifest: String?
}
