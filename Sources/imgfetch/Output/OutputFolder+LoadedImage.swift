import FoundationEssentials
import ImageFetchKit

extension OutputFolder {
    /// Writes a loaded image under its name: the written path, or why not.
    /// `index` is the URL's position in the run (1 for the first), `line` its line in a list.
    func write(_ image: LoadedImage, url: String, keyFilter: CacheKeyFilter, index: Int, line: Int? = nil) -> Result<String, OutputError> {
        // The cached file is named by its key's hash (a variant's own key included); an image
        // kept only in memory has the hash of the URL's key.
        let key = image.filePath.map { path in
            let file = path.split(separator: "/").last.map(String.init) ?? path
            return String(file.prefix { $0 != "." })
        } ?? URL(string: url).map { CacheKey(url: $0, filter: keyFilter).hash }
        let facts = OutputFacts(
            url: URL.redacting(url), format: image.format, width: image.width, height: image.height, key: key, index: index, line: line)
        do { return .success(try write(file: image.filePath, data: image.filePath == nil ? image.data : nil, facts: facts)) } catch { return .failure(error) }
    }
}
