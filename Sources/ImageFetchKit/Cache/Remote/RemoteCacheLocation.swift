import FoundationEssentials

/// Where a remote cache tier is, resolved from `--remote-cache` (or `IMGFETCH_REMOTE_CACHE`) and,
/// for S3, the usual AWS environment variables. Its `description` never shows a credential.
public enum RemoteCacheLocation: Sendable, Equatable, CustomStringConvertible {
    /// `http(s)://host[:port]/prefix`: one object per key, read with GET and written with PUT
    /// (nginx's WebDAV module, bazel-remote, Artifactory). Credentials in the URL's user part
    /// are sent as basic authentication and kept out of `base`.
    case http(base: URL, credentials: DownloadRequest.Credentials?)
    /// `s3://bucket/prefix`, signed with AWS Signature Version 4.
    case s3(S3Location)

    /// A bucket and prefix on S3 or an S3-compatible store.
    public struct S3Location: Sendable, Equatable {
        public var bucket: String
        /// The folder under the bucket, without slashes at either end (may be empty).
        public var prefix: String
        /// `AWS_REGION` (else `AWS_DEFAULT_REGION`, else us-east-1).
        public var region: String
        /// `AWS_ENDPOINT_URL` for an S3-compatible store (MinIO, Ceph RGW, R2), addressed by path
        /// (`endpoint/bucket/key`); nil for AWS itself (`https://bucket.s3.region.amazonaws.com/key`).
        public var endpoint: URL?
        /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`; nil sends unsigned requests (a public bucket).
        public var credentials: DownloadRequest.Credentials?
        /// `AWS_SESSION_TOKEN`, for temporary credentials.
        public var sessionToken: String?
        /// Where temporary credentials are fetched from when no keys are given (web identity,
        /// the container endpoint, the instance metadata service); nil with keys, or none.
        public var credentialSource: AWSCredentialSource?
        /// Where the bucket's objects are: `endpoint/bucket` or `https://bucket.s3.region.amazonaws.com`.
        public var bucketURL: URL
    }

    /// Why a remote cache setting cannot be used; `description` is a full sentence.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The fault is in an environment variable the text made it read (`AWS_*`), not in the text.
        public var comesFromEnvironment = false
    }

    /// Parses `text`, reading the AWS variables for `s3://` through `environment`.
    public init(parsing text: String, environment: (String) -> String?) throws(ParseError) {
        if text.hasPrefix("s3://") {
            let rest = text.dropFirst("s3://".count)
            let bucket = String(rest.prefix { $0 != "/" })
            guard !bucket.isEmpty else { throw ParseError(description: "The remote cache '\(text)' names no bucket (s3://bucket/prefix).") }
            let prefix = rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
            func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
            var endpoint: URL?
            if let text = value("AWS_ENDPOINT_URL") {
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw ParseError(description: "AWS_ENDPOINT_URL '\(text)' is not an http or https URL.", comesFromEnvironment: true)
                }
                endpoint = url
            }
            // The credential chain as the AWS CLI (botocore) walks it: the variables, web
            // identity, the profile's shared files, the container endpoint, the instance
            // metadata service; none at all sends unsigned requests (a public bucket).
            var credentials: DownloadRequest.Credentials?
            var sessionToken = value("AWS_SESSION_TOKEN")
            var credentialSource: AWSCredentialSource?
            let shared = AWSSharedFiles(environment: environment)
            let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? shared.region ?? "us-east-1"
            switch (value("AWS_ACCESS_KEY_ID"), value("AWS_SECRET_ACCESS_KEY")) {
            case (let key?, let secret?): credentials = DownloadRequest.Credentials(user: key, password: secret)
            case (nil, nil):
                if shared.isNamed, !shared.hasProfile {
                    throw ParseError(description: "The AWS profile '\(shared.profile)' (AWS_PROFILE) is in neither ~/.aws/credentials nor ~/.aws/config.", comesFromEnvironment: true)
                }
                if let webIdentity = try AWSCredentialSource.webIdentity(value, region: region) {
                    credentialSource = webIdentity
                } else if let keys = try shared.keys() {
                    credentials = DownloadRequest.Credentials(user: keys.key, password: keys.secret)
                    sessionToken = keys.token
                } else if let container = try AWSCredentialSource.container(value) {
                    credentialSource = container
                } else {
                    credentialSource = try AWSCredentialSource.instanceMetadata(value)
                }
            default: throw ParseError(description: "Set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the remote cache, or neither.", comesFromEnvironment: true)
            }
            // S3's bucket naming rules; they also keep the bucket a valid host name and path part.
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
            guard (3...63).contains(bucket.count), bucket.allSatisfy(allowed.contains),
                  let bucketURL = endpoint.map({ $0.appendingPathComponent(bucket) })
                    ?? URL(string: "https://\(bucket).s3.\(region).amazonaws.com") else {
                throw ParseError(description: "'\(bucket)' is not an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens).")
            }
            self = .s3(S3Location(
                bucket: bucket, prefix: prefix, region: region, endpoint: endpoint, credentials: credentials,
                sessionToken: sessionToken, credentialSource: credentialSource, bucketURL: bucketURL))
            return
        }
        guard var components = URLComponents(string: text), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
              components.host?.isEmpty == false, components.query == nil, components.fragment == nil else {
            throw ParseError(description: "The remote cache '\(Self.redacted(text))' is not an http(s)://host/prefix or s3://bucket/prefix URL.")
        }
        var credentials: DownloadRequest.Credentials?
        if let user = components.user {
            credentials = DownloadRequest.Credentials(user: user, password: components.password ?? "")
        }
        components.user = nil
        components.password = nil
        while components.path.hasSuffix("/") { components.path.removeLast() }
        guard let base = components.url else {
            throw ParseError(description: "The remote cache '\(Self.redacted(text))' is not a valid URL.")
        }
        self = .http(base: base, credentials: credentials)
    }

    public var description: String {
        switch self {
        case .http(let base, _): base.absoluteString
        case .s3(let location): location.prefix.isEmpty ? "s3://\(location.bucket)" : "s3://\(location.bucket)/\(location.prefix)"
        }
    }

    /// `text` with anything between "://" and "@" hidden, for messages about a URL that did not parse.
    private static func redacted(_ text: String) -> String {
        let parts = text.split(separator: "@", maxSplits: 1)
        guard parts.count == 2, let colon = parts[0].firstIndex(of: ":"), parts[0][colon...].hasPrefix("://") else { return text }
        return "\(parts[0][..<colon])://…@\(parts[1])"
    }
}
