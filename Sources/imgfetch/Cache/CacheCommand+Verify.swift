import ArgumentParser
import FoundationEssentials
import ImageFetchKit

extension CacheCommand {
    /// `cache verify`: re-check every entry; with `--fix`, drop what is damaged.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Re-check every entry's file and image data; with --fix, remove what is damaged.",
            // Shorter than the generated one, which lists every option and runs past 80 columns.
            usage: "imgfetch cache verify [<options>]",
            discussion: """
                Prints one line per damaged entry on stdout (tab-separated: file, URL, reason) and a \
                summary on stderr, which also counts unindexed files and temporary files (*.tmp: \
                writes in progress, or left by a killed writer; --fix removes those older than an \
                hour, never one a running imgfetch may still be writing). Exits 1 when damage was \
                found and not fixed.
                """)

        @Flag(help: "Remove damaged entries, files no entry refers to, and leftover temporary files.")
        var fix = false
        @Flag(help: "Decode every pixel instead of checking header and structure only.")
        var decode = false
        @Flag(help: "Print JSON Lines, one object per damaged entry: url, path, reason.")
        var json = false
        @OptionGroup var location: CacheLocationOptions
        @OptionGroup(title: "Output options") var outputOptions: OutputOptions

        func run() throws {
            Terminal.prepare()
            let cache = try location.openCache()
            let registry = DecoderRegistry.standard
            let decode = self.decode
            let report: DiskCache.Verification
            do {
                report = try cache.verify(fix: fix) { data in
                    if decode { _ = try registry.verifyDecoding(data) } else { try registry.validate(data) }
                }
            } catch {
                throw CacheCommand.fail(error)
            }
            let out = StandardOutput.shared
            for damage in report.damaged {
                if json {
                    var line = JSONLine()
                    line.add("url", damage.entry.url)
                    line.add("path", damage.entry.path)
                    line.add("reason", damage.reason)
                    out.writeLine(line.text)
                } else {
                    out.writeLine([damage.entry.path, damage.entry.url, damage.reason].joined(separator: "\t"))
                }
            }
            out.flush()
            if !outputOptions.quiet {
                var text = "imgfetch: verify: \(report.checked) checked, \(report.damaged.count) damaged"
                text += fix ? " (removed)" : ""
                text += ", \(report.unindexedFiles) unindexed files" + (fix ? " (removed)" : "")
                text += ", \(report.temporaryFiles) temporary files"
                if fix, report.temporaryFiles > 0 { text += " (\(report.temporaryFilesRemoved) older than an hour removed)" }
                text += ", \(report.partialFiles) partial files"
                if fix, report.partialFiles > 0 { text += " (\(report.partialFilesRemoved) older than a day removed)" }
                Terminal.writeError(text + "\n")
            }
            if !fix, !report.damaged.isEmpty { throw ExitStatus.partialFailure.exitCode }
        }
    }
}
