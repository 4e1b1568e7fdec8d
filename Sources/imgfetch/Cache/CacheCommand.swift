import ArgumentParser

/// `imgfetch cache ...`: inspect and maintain the disk cache.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and maintain the disk cache.",
        subcommands: [Info.self, List.self, Show.self, Purge.self, Trim.self, Verify.self, Export.self]
    )
}
