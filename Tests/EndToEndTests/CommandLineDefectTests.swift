import Foundation
import XCTest

/// What a script sees when it asks for a copy, gives a bad argument or keeps the cache in
/// bounds: output is written or refused out loud, exit codes follow the documented table, and
/// every message starts with `imgfetch:`.
final class CommandLineDefectTests: EndToEndTestCase {
    func testJSONWithOutputWritesTheFileAndNamesItInTheRecord() throws {
        let target = directory.path("out.jpg")
        let result = try imgfetch(["get", "--json", "-o", target.path, url("/baseline.jpg")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: target), try fixture("baseline.jpg"))
        let record = try XCTUnwrap(jsonObjects(result.stdout).first)
        XCTAssertEqual(record["output"] as? String, target.path)
        XCTAssertEqual(record["format"] as? String, "jpeg")
    }

    func testOutputNamingADirectoryIsAUsageErrorThatPointsAtOutputDirAndWritesNothing() throws {
        try FileManager.default.createDirectory(at: directory.path("existing"), withIntermediateDirectories: false)
        for target in [directory.path("existing").path, directory.path("newdir").path + "/"] {
            let result = try imgfetch(["get", "-o", target, url("/gray.png")])

            XCTAssertEqual(result.status, 2, target)
            XCTAssertTrue(result.stderr.hasPrefix("imgfetch: --output '\(target)' is a directory"), result.stderr)
            XCTAssertTrue(result.stderr.contains("--output-dir"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path("newdir").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path("existing").path), [])
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testAListThatCannotBeReadIsAFileErrorWithExit8() throws {
        let missing = try imgfetch(["prefetch", directory.path("nothing.txt").path])
        XCTAssertEqual(missing.status, 8)
        XCTAssertEqual(missing.stderr, "imgfetch: Cannot open the URL list \(directory.path("nothing.txt").path): No such file or directory.\n")

        let folder = try imgfetch(["prefetch", directory.path("served").path])
        XCTAssertEqual(folder.status, 8)
        XCTAssertTrue(folder.stderr.hasPrefix("imgfetch: Cannot read the URL list "), folder.stderr)
    }

    func testAFileNamedLikeShortOptionsIsNamedAsAnUnknownOptionNotAnsweredWithHelp() throws {
        for argument in ["-dash.png", "-dax.png"] {
            let result = try imgfetch(["info", argument])

            XCTAssertEqual(result.status, 2, argument)
            XCTAssertEqual(result.stdout, "", "no help on stdout")
            XCTAssertTrue(result.stderr.hasPrefix("imgfetch: Unknown option '\(argument)'."), result.stderr)
        }
        // After "--" it is a file name, as ever.
        _ = try directory.write(try fixture("gray.png"), to: "-dash.png")
        let file = try Shell.run("cd \(Shell.quote(directory.url.path)) && \(Shell.quote(Imgfetch.binary.path)) info -- -dash.png")
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertTrue(file.stdout.hasPrefix("-dash.png: png "), file.stdout)
    }

    func testBareImgfetchIsAUsageErrorOnStderr() throws {
        let result = try imgfetch([])

        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: Give a command: get, prefetch, cache, info or show"), result.stderr)
    }

    func testUsageErrorsNameTheUnknownOptionWithTheOnePrefix() throws {
        let result = try imgfetch(["get", "--bogus", url("/gray.png")])

        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("imgfetch: Unknown option '--bogus'"), result.stderr)
        XCTAssertEqual(try requests("/gray.png"), 0)
    }

    func testInfoAndCacheListWriteSizesWithOneX() throws {
        let info = try imgfetch(["info", served.appendingPathComponent("baseline.jpg").path])
        XCTAssertTrue(info.stdout.contains(" jpeg 64x48 "), info.stdout)

        XCTAssertEqual(try imgfetch(["get", url("/baseline.jpg")]).status, 0)
        let list = try imgfetch(["cache", "ls"])
        XCTAssertTrue(list.stdout.hasPrefix("jpeg\t64x48\t"), list.stdout)
    }

    func testFailedURLsAreListedAndPurgingTheURLClearsItsFailure() throws {
        let missing = url("/missing.png")
        XCTAssertEqual(try imgfetch(["get", missing]).status, 4)
        XCTAssertEqual(try imgfetch(["get", missing]).status, 7, "blocked as failed")

        let listed = try imgfetch(["cache", "ls", "--failed"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let fields = try XCTUnwrap(lines(listed.stdout).first).split(separator: "\t").map(String.init)
        XCTAssertEqual(fields.count, 5, listed.stdout)
        XCTAssertEqual(Array(fields.suffix(3)), ["404", missing, "The server answered HTTP 404."])
        let json = try XCTUnwrap(jsonObjects(try imgfetch(["cache", "ls", "--failed", "--json"]).stdout).first)
        XCTAssertEqual(json["url"] as? String, missing)
        XCTAssertEqual(json["status"] as? Int, 404)
        XCTAssertNotNil(json["until"] as? String)

        let purge = try imgfetch(["cache", "purge", missing])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        XCTAssertTrue(purge.stderr.hasSuffix(" and 1 failed URLs\n"), purge.stderr)
        XCTAssertEqual(try imgfetch(["cache", "ls", "--failed"]).stdout, "")
        XCTAssertEqual(try imgfetch(["get", missing]).status, 4, "fetched again, not blocked")
        XCTAssertEqual(try requests("/missing.png"), 2)
    }

    func testPurgeFailedWithURLsClearsOnlyTheirFailuresAndKeepsEntries() throws {
        let (first, second) = (url("/missing.png"), url("/nothing.jpg"))
        XCTAssertEqual(try imgfetch(["get", first, second, url("/gray.png")]).status, 1)

        let purge = try imgfetch(["cache", "purge", "--failed", first, url("/gray.png")])

        XCTAssertEqual(purge.status, 0, purge.stderr)
        let listed = lines(try imgfetch(["cache", "ls", "--failed"]).stdout)
        XCTAssertEqual(listed.count, 1)
        XCTAssertTrue(listed.first?.contains(second) ?? false, listed.description)
        XCTAssertEqual(try cachedEntries().map(\.url), [url("/gray.png")])
    }

    func testTrimWithMaxSizeKeepsAsMuchAsFitsInThatSize() throws {
        let names = ["baseline.jpg", "gray.png", "alpha.png", "animated.gif", "alpha.webp", "gray.jpg"]
        XCTAssertEqual(try imgfetch(["get"] + names.map { url("/\($0)") }).status, 0)
        let total = try cachedEntries().reduce(0) { $0 + $1.bytes }

        let trim = try imgfetch(["cache", "trim", "--max-size", String(total - 1)])

        XCTAssertEqual(trim.status, 0, trim.stderr)
        let left = try cachedEntries()
        XCTAssertEqual(left.count, names.count - 1, "one entry of any size frees the one byte asked for")
        XCTAssertLessThanOrEqual(left.reduce(0) { $0 + $1.bytes }, total - 1)
    }

    func testBashCompletionOffersFilesAndFoldersForPathsAndTheValuesOfChoices() throws {
        let script = try imgfetch(["--generate-completion-script", "bash"]).stdout
        func completion(of option: String) -> String? {
            guard let start = script.range(of: "    '\(option)')\n") else { return nil }
            return script[start.upperBound...].split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }

        XCTAssertEqual(completion(of: "--cacert"), "__imgfetch_add_completions -f")
        XCTAssertEqual(completion(of: "--cache-dir"), "__imgfetch_add_completions -d")
        XCTAssertEqual(completion(of: "--output-dir"), "__imgfetch_add_completions -d")
        XCTAssertEqual(completion(of: "--output'|'-o"), "__imgfetch_add_completions -f")
        XCTAssertEqual(completion(of: "--verify"), "__imgfetch_add_completions -W 'header'$'\\n''decode'")
        XCTAssertEqual(completion(of: "--fit"), "__imgfetch_add_completions -W 'inside'$'\\n''cover'$'\\n''fill'$'\\n''contain'$'\\n''outside'")
        XCTAssertEqual(completion(of: "--format"), "__imgfetch_add_completions -W 'jpeg'$'\\n''png'$'\\n''webp'$'\\n''avif'")
        let help = try imgfetch(["--help"]).stdout
        XCTAssertTrue(help.contains("SHELL COMPLETION:\n  bash  imgfetch --generate-completion-script bash >"), help)
    }

    func testPrefetchSummaryCountsBytesFromTheNetworkAndVariantsApart() throws {
        let names = ["bmp24.bmp", "alpha.bmp"]
        let list = try directory.write(Data(names.map { url("/\($0)") }.joined(separator: "\n").utf8), to: "list.txt")

        let result = try imgfetch(["prefetch", "--resize", "8", list.path])

        XCTAssertEqual(result.status, 0, result.stderr)
        let received = try names.reduce(0) { $0 + (try fixture($1).count) }
        let variants = try cachedEntries().filter { $0.key.variantSpec != nil }
        XCTAssertEqual(variants.count, 2)
        let made = variants.reduce(Int64(0)) { $0 + $1.bytes }
        XCTAssertLessThan(made, Int64(received) / 4, "the variants are far smaller than what was fetched")
        let fetched = String(format: "%.1f KiB fetched in ", Double(received) / 1024)
        XCTAssertTrue(result.stderr.contains("; \(fetched)"), result.stderr)
        XCTAssertTrue(result.stderr.contains(" s; 2 variants made ("), result.stderr)
    }
}
