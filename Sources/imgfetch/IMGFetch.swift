import ArgumentParser

@main
struct IMGFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgfetch",
        abstract: "Fetch images from URLs once, validate them, and keep them in a local cache.",
        version: "0.1.0",
        subcommands: [InfoCommand.self]
    )
}
