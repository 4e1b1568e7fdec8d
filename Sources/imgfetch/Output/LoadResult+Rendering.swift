import FoundationEssentials
import ImageFetchKit

extension LoadResult {
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
