import CCurl
import FoundationEssentials

extension Transfer {
    /// What the finished attempt on `easy` amounts to. libcurl's codes become `DownloadError`s
    /// here and nowhere else. Only a complete 2xx body (or a 304 to a conditional request)
    /// is a success.
    func outcome(of code: CURLcode, on easy: UnsafeMutableRawPointer) -> (result: Result<DownloadResponse, DownloadError>, retryAfter: Duration?) {
        var status = 0
        imgfetch_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var retryAfter: curl_off_t = 0
        imgfetch_easy_getinfo_off(easy, CURLINFO_RETRY_AFTER, &retryAfter)
        let wait: Duration? = retryAfter > 0 ? .seconds(retryAfter) : nil

        guard code == CURLE_OK else {
            var failure = error(for: code)
            failure.partial = partialBody()
            return (.failure(failure), wait)
        }
        let conditional = !request.validators.isEmpty
        if continuing != nil, status == 416 {
            return (.failure(DownloadError(url: request.url, kind: .resumeRefused, detail: "HTTP 416")), nil)
        }
        guard (200...299).contains(status) || (status == 304 && conditional) else {
            let reply = errorBody.isEmpty ? nil : errorBody
            // A body this transfer was continuing is still there to continue (a 503 mid-retry).
            return (.failure(DownloadError(url: request.url, kind: .http(status: status), partial: partialBody(), replyBody: reply)), wait)
        }
        var effective: UnsafeMutablePointer<CChar>?
        imgfetch_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        var contentType: UnsafeMutablePointer<CChar>?
        imgfetch_easy_getinfo_string(easy, CURLINFO_CONTENT_TYPE, &contentType)
        var response = DownloadResponse(
            url: request.url,
            effectiveURL: effective.flatMap { URL(string: String(cString: $0)) } ?? request.url,
            statusCode: status,
            body: status == 304 ? Data() : body,
            resumedFrom: bodyOffset,
            contentType: contentType.map { String(cString: $0) },
            etag: header(named: "ETag", of: easy),
            lastModified: header(named: "Last-Modified", of: easy),
            cacheControl: header(named: "Cache-Control", of: easy)
        )
        response.robotsTags = headers(named: "X-Robots-Tag", of: easy)
        var microseconds: curl_off_t = 0
        imgfetch_easy_getinfo_off(easy, CURLINFO_TOTAL_TIME_T, &microseconds)
        response.transferTime = .microseconds(microseconds)
        return (.success(response), nil)
    }

    private func error(for code: CURLcode) -> DownloadError {
        let options = request.options
        let kind: DownloadError.Kind
        switch code {
        case CURLE_WRITE_ERROR where rangeMismatch:
            kind = .resumeRefused
        case CURLE_WRITE_ERROR where exceededLimit, CURLE_FILESIZE_EXCEEDED:
            kind = .tooLarge(limit: options.maxBytes ?? 0)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .dns
        case CURLE_COULDNT_CONNECT:
            kind = .connect
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED:
            kind = .tls
        case CURLE_PARTIAL_FILE:
            kind = .truncated
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .connectionLost
        case CURLE_UNSUPPORTED_PROTOCOL:
            // The first URL's scheme was checked before queueing, so this is where a redirect led.
            kind = .redirectRefused
        case CURLE_TOO_MANY_REDIRECTS:
            kind = .tooManyRedirects(limit: options.maxRedirects)
        case CURLE_BAD_CONTENT_ENCODING:
            kind = .badContentEncoding
        case CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
        default:
            kind = .transport(code: Int(code.rawValue))
        }
        let message = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: imgfetch_curl_easy_strerror(code))
        return DownloadError(url: request.url, kind: kind, detail: message)
    }
}
