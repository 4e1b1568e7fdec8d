import ArgumentParser
import ImageFetchKit

/// How a URL becomes its cache key: shared by the loading commands and `cache show|purge`.
struct KeyFilterOptions: ParsableArguments {
    @Flag(help: "Key the cache by the URL without its query string (for signed URLs).")
    var ignoreQuery = false

    @Option(help: ArgumentHelp("Key the cache by the URL without this query parameter (repeatable).", valueName: "name"))
    var ignoreParam: [String] = []

    func validate() throws {
        if ignoreQuery && !ignoreParam.isEmpty { throw ValidationError("--ignore-query already drops every --ignore-param.") }
    }

    var filter: CacheKeyFilter {
        ignoreQuery ? .ignoringQuery : ignoreParam.isEmpty ? .none : .ignoringQueryParameters(Set(ignoreParam))
    }
}
