import FoundationEssentials
import ImageFetchKit

/// One manifest line: what `--json` prints and `--manifest` writes for one URL.
///
/// Keys, in order: url, path, output, format, width, height, bytes, sha256, status, final_url,
/// content_type, cache, variant, transformed, original_width, original_height, line, shard,
/// elapsed_ms, error.
/// For a variant the facts are the variant's; `status`, `final_url` and `content_type` are those
/// of the response that brought the image (or its original) in this run, null for a hit.
struct ManifestRecord {
    static let keys = [
        "url", "path", "output", "format", "width", "height", "bytes", "sha256", "status", "final_url",
        "content_type", "cache", "variant", "transformed", "original_width", "original_height", "line", "shard",
        "elapsed_ms", "error",
    ]

    var result: LoadResult
    /// The copy written for the user (`-o FILE`, `--output-dir`), if any.
    var output: String?
    var sha256: String?
    /// For prefetch: the list's line number of the URL, and the shard (`I/N`) the run took.
    var batch: (line: Int?, shard: String?) = (nil, nil)

    /// The record of `result`, its digest taken from the index (or computed once and kept there).
    init(_ result: LoadResult, output: String?, cache: DiskCache?) {
        self.result = result
        self.output = output
        guard let image = result.image else { return }
        if let path = image.filePath {
            sha256 = try? cache?.sha256(ofEntryFile: path)
        } else if let data = image.data {
            sha256 = SHA256Digest.hex(of: data)
        }
    }

    /// The values in `keys` order: text, numbers as text, or nil for null.
    private var values: [Value] {
        let image = result.image
        return [
            .text(URL.redacting(result.url)), .text(image?.filePath), .text(output), .text(image?.format.rawValue),
            .number(image?.width), .number(image?.height), .number(image?.byteCount), .text(sha256),
            .number(image?.response?.status), .text(image?.response?.finalURL), .text(image?.response?.contentType),
            .text(image?.cacheType.rawValue), .text(image?.variant), .bool(image?.transformed ?? false),
            .number(image?.originalSize?.width), .number(image?.originalSize?.height), .number(batch.line), .text(batch.shard),
            .number(Int((result.elapsed * 1000).rounded())), .text(result.error?.reason),
        ]
    }

    private enum Value {
        case text(String?)
        case number(Int?)
        case bool(Bool)
    }

    var jsonLine: String { jsonLine(excluding: []) }

    /// The JSON object without `excluded` keys (for `info`, which has its own for those facts).
    func jsonLine(excluding excluded: Set<String>) -> String {
        var json = JSONLine()
        for (key, value) in zip(Self.keys, values) where !excluded.contains(key) {
            switch value {
            case .text(let text): json.add(key, text)
            case .number(let number): json.add(key, number)
            case .bool(let flag): json.add(key, flag)
            }
        }
        return json.text
    }

    /// The CSV header line, for a manifest ending in `.csv`.
    static var csvHeader: String { keys.joined(separator: ",") }

    /// The same values as a CSV line (RFC 4180: fields with a comma, quote or line break are
    /// quoted, quotes doubled; null is an empty field).
    var csvLine: String {
        values.map { value in
            switch value {
            case .text(let text): Self.csvField(text ?? "")
            case .number(let number): number.map(String.init) ?? ""
            case .bool(let flag): flag ? "true" : "false"
            }
        }.joined(separator: ",")
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var quoted = "\""
        for character in text {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
