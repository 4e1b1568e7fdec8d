import FoundationEssentials

/// What to fetch and how. Requests that are equal except for `priority` are coalesced into one transfer.
public struct DownloadRequest: Hashable, Sendable {
    /// An http or https URL; anything else fails with `.unsupportedScheme` without touching the network.
    public var url: URL
    /// Extra request headers, e.g. `["Referer": "…"]`. An `Accept` here replaces the default
    /// `image/*,*/*;q=0.8`.
    public var headers: [String: String]
    /// Validators from a cached copy; when set, the request is conditional and may end in a 304.
    public var validators: Validators
    /// How urgently to start it when the downloader is at its concurrency limit.
    public var priority: DownloadPriority
    /// Limits, TLS and credentials.
    public var options: Options
    /// GET, or PUT with a body (a remote cache tier's upload).
    public var method: Method
    /// Continue a body already partly held instead of asking for all of it (a GET only).
    public var resume: Resume.Point?
    /// Mirror a large body into this file as it arrives (see `Resume.Checkpoint`).
    public var checkpoint: Resume.Checkpoint?

    public init(
        url: URL,
        headers: [String: String] = [:],
        validators: Validators = Validators(),
        priority: DownloadPriority = .normal,
        options: Options = Options(),
        method: Method = .get
    ) {
        self.url = url
        self.headers = headers
        self.validators = validators
        self.priority = priority
        self.options = options
        self.method = method
    }

    /// The HTTP method and, for a PUT or POST, the bytes sent.
    public enum Method: Hashable, Sendable {
        case get
        /// Uploads `body` as the resource at the URL; any 2xx reply is a success.
        case put(body: Data)
        /// Sends a form (`application/x-www-form-urlencoded`) such as an AWS Query API call.
        case postForm(body: Data)
    }

    /// A cached copy's validators, sent as `If-None-Match` / `If-Modified-Since`.
    public struct Validators: Hashable, Sendable {
        public var etag: String?
        /// The `Last-Modified` value exactly as the server sent it.
        public var lastModified: String?

        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }

        public var isEmpty: Bool { etag == nil && lastModified == nil }
    }

    /// Per-request transfer options; the defaults are safe (TLS verified, 15 s timeouts, no retries).
    public struct Options: Hashable, Sendable {
        /// Longest wait to connect, and longest time the transfer may go without receiving a byte.
        public var timeout: Duration
        /// Longest time the whole transfer may take; `nil` for no limit beyond `timeout`.
        public var totalTimeout: Duration?
        /// Largest body accepted, in bytes (after content decoding); `nil` for no limit.
        public var maxBytes: Int?
        /// Redirects followed before failing with `.tooManyRedirects`; only http and https targets are followed.
        public var maxRedirects: Int
        /// Retries of transient failures, with the semantics of curl's `--retry`.
        public var retry: RetryPolicy
        /// Skip TLS certificate and host name verification. An explicit, insecure opt-in.
        public var insecure: Bool
        /// A PEM file of CA certificates to verify the server with, instead of the system's.
        public var caFile: String?
        /// HTTP basic authentication, or with `signing` the key pair that signs the request.
        public var credentials: Credentials?
        /// Sign the request with AWS Signature Version 4 (libcurl computes it) using `credentials`.
        public var signing: AWSSigning?
        /// The `User-Agent` sent; nil for `imgfetch/VERSION`.
        public var userAgent: String?
        /// A `Cookie` header sent as given (`NAME=VALUE; NAME2=VALUE2`), besides any cookie the
        /// downloader's cookie engine holds for the host.
        public var cookie: String?
        /// The most bytes of an error reply's body kept in `DownloadError.replyBody` (an S3
        /// error's XML, say); 0, the default, drops error bodies unread.
        public var errorBodyLimit: Int

        public init(
            timeout: Duration = .seconds(15),
            totalTimeout: Duration? = nil,
            maxBytes: Int? = nil,
            maxRedirects: Int = 10,
            retry: RetryPolicy = .none,
            insecure: Bool = false,
            caFile: String? = nil,
            credentials: Credentials? = nil,
            signing: AWSSigning? = nil,
            userAgent: String? = nil,
            cookie: String? = nil,
            errorBodyLimit: Int = 0
        ) {
            self.timeout = timeout
            self.totalTimeout = totalTimeout
            self.maxBytes = maxBytes
            self.maxRedirects = maxRedirects
            self.retry = retry
            self.insecure = insecure
            self.caFile = caFile
            self.credentials = credentials
            self.signing = signing
            self.userAgent = userAgent
            self.cookie = cookie
            self.errorBodyLimit = errorBodyLimit
        }
    }

    /// What AWS Signature Version 4 needs besides the key pair: the region and service signed for.
    public struct AWSSigning: Hashable, Sendable {
        public var region: String
        /// `s3` for S3 and S3-compatible stores.
        public var service: String

        public init(region: String, service: String = "s3") {
            self.region = region
            self.service = service
        }

        /// libcurl's `CURLOPT_AWS_SIGV4` parameter.
        var curlParameter: String { "aws:amz:\(region):\(service)" }
    }

    /// A user name and password for HTTP basic authentication.
    public struct Credentials: Hashable, Sendable {
        public var user: String
        public var password: String

        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }
}

/// Which queued transfers start first when the downloader is at its concurrency limit.
public enum DownloadPriority: Int, Comparable, CaseIterable, Sendable {
    case low, normal, high

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
