import FoundationEssentials
import Synchronization

/// `LoadOptions.respectRobots`: a site's `/robots.txt` is asked once per run (loads of one site
/// wait for the one request) and kept in the disk cache's index until it expires (so later runs
/// need not ask), and a URL it refuses is never requested; a reply whose
/// `X-Robots-Tag` opts the image out is not cached. Either is `LoaderError.refusedByRobots`.
extension ImageLoader {
    /// The crawler's product token robots rules are matched against: the user agent's first word
    /// before any "/", lowercased (`imgfetch` by default).
    static func robotsAgent(_ userAgent: String?) -> String {
        let token = (userAgent ?? "imgfetch").prefix { $0 != "/" && !$0.isWhitespace }
        return token.isEmpty ? "imgfetch" : token.lowercased()
    }

    /// Throws `refusedByRobots` when the robots.txt of `url`'s site refuses it.
    func checkRobots(_ url: URL, options: LoadOptions, cache: DiskCache?) async throws(LoaderError) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host(percentEncoded: true) else { return }
        let site = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        let agent = Self.robotsAgent(options.userAgent)
        let kept = options.noDiskCache ? nil : cache
        let rules = await robotsFiles.rules(for: site) { await self.robotsRules(of: site, agent: agent, options: options, cache: kept) }
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        if let rule = rules.refusal(of: path) {
            throw .refusedByRobots(url, rule: "\(site)/robots.txt: \(rule.line)", byTag: false)
        }
    }

    /// Throws `refusedByRobots` when the reply's X-Robots-Tag opts the image out for this crawler.
    func checkRobotsTag(of response: DownloadResponse, url: URL, options: LoadOptions) throws(LoaderError) {
        if let value = XRobotsTag.refusal(in: response.robotsTags, agent: Self.robotsAgent(options.userAgent)) {
            throw .refusedByRobots(url, rule: "X-Robots-Tag: \(value)", byTag: true)
        }
    }

    /// The rules of `site`'s robots.txt, from `cache` while it keeps a copy, else asked for (and
    /// kept there): none for a 4xx (RFC 9309: no rules), everything refused when it cannot be had
    /// (a 5xx, an unreachable server, one too large to read).
    private func robotsRules(of site: String, agent: String, options: LoadOptions, cache: DiskCache?) async -> RobotsRules {
        if let cache, let kept = try? cache.robotsFile(for: site) { return RobotsRules(kept, agent: agent) }
        guard let (file, maxAge) = await fetchRobots(site, options: options) else { return .disallowAll }
        try? cache?.keepRobotsFile(file, for: site, maxAge: maxAge)
        return RobotsRules(file, agent: agent)
    }

    /// `site`'s robots.txt and how long it may be kept (its Cache-Control max-age, else a day),
    /// or nil when it cannot be had.
    private func fetchRobots(_ site: String, options: LoadOptions) async -> (DiskCache.RobotsFile, TimeInterval)? {
        guard let url = URL(string: site + "/robots.txt") else { return (DiskCache.RobotsFile(status: 404, body: ""), 0) }
        var request = downloadRequest(url, stale: nil, options: options)
        request.headers["Accept"] = "text/plain"
        request.options.maxBytes = 512 * 1024
        do throws(DownloadError) {
            let response = try await dataLoader.load(request, progress: nil)
            let maxAge = response.maxAge.map { TimeInterval($0.components.seconds) } ?? DiskCache.robotsFileMaxAge
            return (DiskCache.RobotsFile(status: response.statusCode, body: String(decoding: response.body, as: UTF8.self)), maxAge)
        } catch {
            if case .http(let status) = error.kind, (400..<500).contains(status) {
                return (DiskCache.RobotsFile(status: status, body: ""), DiskCache.robotsFileMaxAge)
            }
            return nil
        }
    }
}

extension RobotsRules {
    /// The rules a robots.txt answer holds for `agent`: none for a 4xx.
    init(_ file: DiskCache.RobotsFile, agent: String) {
        self = (400..<500).contains(file.status) ? .allowAll : RobotsRules(parsing: file.body, agent: agent)
    }
}

/// The robots.txt rules of the sites a run has asked, one request per site.
final class RobotsFiles: Sendable {
    private let sites = Mutex<[String: Task<RobotsRules, Never>]>([:])

    func rules(for site: String, fetch: @escaping @Sendable () async -> RobotsRules) async -> RobotsRules {
        let task = sites.withLock { sites in
            if let running = sites[site] { return running }
            let task = Task { await fetch() }
            sites[site] = task
            return task
        }
        return await task.value
    }
}
