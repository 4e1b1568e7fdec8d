import CCurl
import FoundationEssentials

extension Transfer {
    /// What every request says it comes from.
    static let userAgent = "imgfetch/\(ImgfetchVersion.current)"

    /// Applies the request to `easy`: safe defaults (http/https only, TLS verified, the default
    /// Accept header) plus the request's own options. Returns the first code libcurl refused.
    func configure(_ easy: UnsafeMutableRawPointer) -> CURLcode {
        let options = request.options
        var refused = CURLE_OK
        func set(_ code: CURLcode) { if refused == CURLE_OK { refused = code } }

        set(imgfetch_easy_setopt_string(easy, CURLOPT_URL, request.url.requestString))
        set(imgfetch_easy_setopt_pointer(easy, CURLOPT_PRIVATE, Unmanaged.passUnretained(self).toOpaque()))
        set(imgfetch_easy_setopt_write_function(easy) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            let chunk = UnsafeRawBufferPointer(start: data, count: size * count)
            switch transfer.receive(chunk) {
            case .taken: return size * count
            case .stop: return 0
            // libcurl keeps the chunk and gives it again when the engine resumes the transfer.
            case .pause: return Int(CURL_WRITEFUNC_PAUSE)
            }
        })
        set(imgfetch_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque()))
        set(imgfetch_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set(imgfetch_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        // libcurl's 16 KiB default means a callback and a recv per 16 KiB; images are mostly
        // larger, and 128 KiB (curl's own tool uses 100 KiB) cuts those calls by up to 8.
        // Best effort: libcurl refuses it on a reused handle that still holds its old buffer
        // (after a failed transfer), and the transfer is as correct without it.
        _ = imgfetch_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 128 * 1024)
        set(imgfetch_easy_setopt_string(easy, CURLOPT_USERAGENT, options.userAgent ?? Self.userAgent))
        if let cookie = options.cookie { set(imgfetch_easy_setopt_string(easy, CURLOPT_COOKIE, cookie)) }
        if let cookies {
            // The downloader's cookie store; "" turns the engine on without reading a file.
            set(imgfetch_easy_setopt_pointer(easy, CURLOPT_SHARE, cookies))
            set(imgfetch_easy_setopt_string(easy, CURLOPT_COOKIEFILE, ""))
        }

        // Only http and https, for the first request and every redirect (no file://, ftp://, …).
        set(imgfetch_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(imgfetch_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(imgfetch_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1))
        set(imgfetch_easy_setopt_long(easy, CURLOPT_MAXREDIRS, max(0, options.maxRedirects)))

        set(imgfetch_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
        if let continuing { set(imgfetch_easy_setopt_string(easy, CURLOPT_RANGE, "\(continuing.offset)-")) }
        set(imgfetch_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""))  // every encoding libcurl decodes
        set(imgfetch_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        if request.url.scheme?.lowercased() == "https" {
            // Over TLS, wait for ALPN to say whether an existing connection multiplexes (HTTP/2)
            // before opening another. Never for plain http: there libcurl would hold every new
            // transfer to a host until the first one's response headers arrived.
            set(imgfetch_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
        }

        // `timeout` bounds connecting and any stretch without a byte; `totalTimeout` the whole transfer.
        set(imgfetch_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, options.timeout.milliseconds))
        set(imgfetch_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1))
        set(imgfetch_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, (options.timeout.milliseconds + 999) / 1000)))
        if let total = options.totalTimeout {
            set(imgfetch_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, total.milliseconds))
        }
        if let limit = options.maxBytes {
            // libcurl refuses a declared length over the limit; `receive` enforces it while streaming.
            set(imgfetch_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)))
        }

        if options.insecure {
            set(imgfetch_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0))
            set(imgfetch_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0))
        }
        if let caFile = options.caFile {
            set(imgfetch_easy_setopt_string(easy, CURLOPT_CAINFO, caFile))
        }
        if let credentials = options.credentials {
            if let signing = options.signing {
                // Sets the authentication to SigV4; the key pair is the user name and password.
                set(imgfetch_easy_setopt_string(easy, CURLOPT_AWS_SIGV4, signing.curlParameter))
            } else {
                set(imgfetch_easy_setopt_long(easy, CURLOPT_HTTPAUTH, 1 /* CURLAUTH_BASIC */))
            }
            set(imgfetch_easy_setopt_string(easy, CURLOPT_USERNAME, credentials.user))
            set(imgfetch_easy_setopt_string(easy, CURLOPT_PASSWORD, credentials.password))
        }
        switch request.method {
        case .get: break
        case .put(let body), .postForm(let body):
            // The body is copied into the handle (and hashed there for SigV4), so nothing has to
            // outlive this call; the size first, as the bytes are binary. Without a custom
            // request, libcurl posts them.
            if case .put = request.method { set(imgfetch_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, "PUT")) }
            set(imgfetch_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            set(body.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress else { return CURLE_OK }
                return imgfetch_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: start))
            })
        }
        return refused
    }
}

extension Duration {
    /// Whole milliseconds, for libcurl's `_MS` options.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
