import ImageFetchKit

extension ImageLoader {
    /// Writes `--cookie-jar` at the end of a run, reporting a failure with `report`; false when
    /// the jar could not be written (the run then exits 8 if nothing else failed).
    /// Without a jar nothing is awaited: a run of cache hits starts no concurrency thread.
    nonisolated(nonsending) func savingCookies(report: (String) -> Void) async -> Bool {
        guard configuration.cookieFile != nil else { return true }
        do {
            try await saveCookies()
            return true
        } catch {
            report("imgfetch: \(error)")
            return false
        }
    }
}
