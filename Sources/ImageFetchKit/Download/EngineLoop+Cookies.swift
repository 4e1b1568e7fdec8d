import CCurl
import FoundationEssentials

/// A downloader's cookie file (`DownloaderConfiguration.cookieFile`) on the engine thread: one
/// libcurl share holding the cookie store every transfer of the downloader uses.
extension EngineLoop {
    /// `client`'s cookie store, made at its first transfer with the cookie file read into it (if
    /// the file exists); nil without a cookie file.
    func cookieShare(for client: EngineClient) -> UnsafeMutableRawPointer? {
        guard let file = client.configuration.cookieFile else { return nil }
        if let share = cookieShares[client.id] { return share }
        guard let share = imgfetch_curl_share_init() else { return nil }
        _ = imgfetch_curl_share_share(share, CURL_LOCK_DATA_COOKIE)
        if FileManager.default.fileExists(atPath: file), let reader = imgfetch_curl_easy_init() {
            // RELOAD reads the files named by COOKIEFILE now, into the share, not at a transfer.
            _ = imgfetch_easy_setopt_pointer(reader, CURLOPT_SHARE, share)
            _ = imgfetch_easy_setopt_string(reader, CURLOPT_COOKIEFILE, file)
            _ = imgfetch_easy_setopt_string(reader, CURLOPT_COOKIELIST, "RELOAD")
            imgfetch_curl_easy_cleanup(reader)
        }
        cookieShares[client.id] = share
        return share
    }

    /// The cookies `clientID`'s store holds, as Netscape cookie file lines.
    func cookieLines(of clientID: UInt64) -> [String] {
        guard let share = cookieShares[clientID], let reader = imgfetch_curl_easy_init() else { return [] }
        defer { imgfetch_curl_easy_cleanup(reader) }
        _ = imgfetch_easy_setopt_pointer(reader, CURLOPT_SHARE, share)
        var list: UnsafeMutablePointer<curl_slist>?
        guard imgfetch_easy_getinfo_slist(reader, CURLINFO_COOKIELIST, &list) == CURLE_OK else { return [] }
        defer { imgfetch_curl_slist_free_all(list) }
        var lines: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }
}
