import FoundationEssentials
import ImageFetchKit

extension LoadResult {
    /// The `--json` object: url, path, output, format, width, height, bytes, cache, variant,
    /// transformed, elapsed_ms, error. For a variant, the facts are the variant's. `output` is
    /// the copy written for the user (`-o FILE`), null when none was.
    func jsonLine(output: String? = nil) -> String {
        let image = self.image
        var json = JSONLine()
        json.add("url", URL.redacting(url))
        json.add("path", image?.filePath)
        json.add("output", output)
        json.add("format", image?.format.rawValue)
        json.add("width", image?.width)
        json.add("height", image?.height)
        json.add("bytes", image?.byteCount)
        json.add("cache", image?.cacheType.rawValue)
        json.add("variant", image?.variant)
        json.add("transformed", image?.transformed ?? false)
        json.add("elapsed_ms", Int((elapsed * 1000).rounded()))
        json.add("error", error?.reason)
        return json.text
    }

    /// The one stderr line for a failure: `imgfetch: URL: cause`.
    var errorLine: String? {
        error.map { "imgfetch: \(URL.redacting(url)): \($0.reason)" }
    }

    /// The `-v` stderr line: cache type, time and URL.
    var verboseLine: String {
        let ms = Int((elapsed * 1000).rounded())
        if let image {
            let variant = image.variant.map { " [\($0)\(image.transformed ? ", made now" : "")]" } ?? ""
            return "imgfetch: \(image.cacheType.rawValue) \(ms)ms \(image.format.rawValue) \(image.width)x\(image.height) \(image.byteCount)B \(URL.redacting(url))\(variant)"
        }
        return "imgfetch: failed \(ms)ms \(URL.redacting(url))"
    }
}

extension URLListReader.RejectedLine {
    /// The `--json` object for a skipped line: its excerpt as `url`, its `line` number and the `error`.
    var jsonLine: String {
        var json = JSONLine()
        json.add("url", excerpt)
        json.add("line", number)
        json.add("error", reason)
        return json.text
    }
}
