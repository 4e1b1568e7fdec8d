import FoundationEssentials
import ImageFetchKit

extension InfoCommand {
    /// Why a URL could not be inspected: the cause, without the URL, and its exit status.
    struct URLFailure: Error {
        var reason: String
        var status: ExitStatus
    }

    /// The manifest keys an `info --json` object of a URL leaves out: its own keys say these
    /// facts, and nothing is written out or listed.
    static let keysInfoHasItself: Set = ["format", "width", "height", "bytes", "output", "line", "shard", "error"]

    static func isURL(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// Loads `url` through the caches and returns its `info` line, naming the URL instead of a file.
    func inspect(url: String, with loader: ImageLoader) async -> Result<String, URLFailure> {
        var options = loaderOptions.loadOptions
        options.transform = try? transformOptions.spec(maxPixels: loaderOptions.maxPixels)
        if decode { options.verification = .decode }
        let result = await loader.load(url, options: options)
        guard let image = result.image else {
            let error = result.error
            return .failure(URLFailure(reason: error?.reason ?? "Not loaded.", status: ExitStatus(error?.category ?? .file)))
        }
        do {
            // The cached copy is probed again: the disk index does not keep the frame count.
            let data = try image.contents()
            let limits = DecodeLimits(maxPixels: options.maxPixels)
            let registry = DecoderRegistry.standard
            let info = decode ? try registry.verifyDecoding(data, limits: limits) : try registry.validate(data, limits: limits)
            guard json else { return .success(textLine(name: url, info: info, byteCount: data.count)) }
            // info's own keys, then the manifest's facts of the load (the same as get's record).
            let record = ManifestRecord(result, output: nil, cache: try? loader.diskCache())
            let manifest = record.jsonLine(excluding: Self.keysInfoHasItself)
            return .success(String(jsonLine(name: url, info: info, byteCount: data.count).dropLast()) + "," + manifest.dropFirst())
        } catch let error as DecodeError {
            return .failure(URLFailure(reason: error.description, status: ExitStatus(decodeError: error)))
        } catch {
            return .failure(URLFailure(reason: "The cached copy cannot be read: \(error).", status: .fileError))
        }
    }
}
