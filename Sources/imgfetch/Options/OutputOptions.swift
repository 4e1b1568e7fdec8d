import ArgumentParser

/// How much a command says on stderr, shared by every command.
struct OutputOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors; no progress display.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print each URL's cache type and time on stderr.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other.") }
    }
}
