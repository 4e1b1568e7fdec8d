import FoundationEssentials

/// The requests each credential source takes, all through the tier's libcurl downloader.
extension AWSCredentialProvider {
    /// The source's credentials; nil when it has none to give (no instance role). A failure
    /// other than a refusal counts as the tier's being out of reach: every request would fail
    /// the same way, so both directions pause at once, with one warning.
    func fetch(from source: RemoteCacheLocation.AWSCredentialSource) async throws(RemoteFailure) -> Credentials? {
        do {
            return try await fetchOnce(from: source)
        } catch {
            guard case .refused = error.kind else { throw RemoteFailure(kind: .unreachable, reason: error.reason) }
            throw error
        }
    }

    private func fetchOnce(from source: RemoteCacheLocation.AWSCredentialSource) async throws(RemoteFailure) -> Credentials? {
        switch source {
        case .webIdentity(let tokenFile, let role, let sessionName, let endpoint):
            return try await assumeRoleWithWebIdentity(tokenFile: tokenFile, role: role, sessionName: sessionName, endpoint: endpoint)
        case .container(let url, let authorization, let authorizationFile):
            var headers: [String: String] = [:]
            if let authorizationFile {
                headers["Authorization"] = try readToken(authorizationFile, variable: "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")
            } else if let authorization {
                headers["Authorization"] = authorization
            }
            let reply = try await send(url, headers: headers, asking: "The container credentials endpoint")
            return try decodeJSON(reply, from: "The container credentials endpoint")
        case .instanceMetadata(let endpoint):
            return try await instanceRole(at: endpoint)
        }
    }

    /// STS `AssumeRoleWithWebIdentity`: an unsigned Query API call posted as a form, as the
    /// SDKs post it (S3-compatible stores that also serve STS, moto among them, tell it from
    /// S3 by the form's Action), answered in XML.
    private func assumeRoleWithWebIdentity(tokenFile: String, role: String, sessionName: String, endpoint: URL) async throws(RemoteFailure) -> Credentials {
        let token = try readToken(tokenFile, variable: "AWS_WEB_IDENTITY_TOKEN_FILE")
        let form = [
            ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", role),
            ("RoleSessionName", sessionName), ("WebIdentityToken", token),
        ].map { "\($0.0)=\(Self.queryEncoded($0.1))" }.joined(separator: "&")
        let reply = String(decoding: try await send(
            endpoint, method: .postForm(body: Data(form.utf8)), headers: [:], asking: "STS AssumeRoleWithWebIdentity"), as: UTF8.self)
        guard let key = XMLElementText.first("AccessKeyId", in: reply), let secret = XMLElementText.first("SecretAccessKey", in: reply) else {
            throw RemoteFailure(kind: .other, reason: "STS AssumeRoleWithWebIdentity answered without credentials.")
        }
        return Credentials(
            key: key, secret: secret, token: XMLElementText.first("SessionToken", in: reply),
            expiration: XMLElementText.first("Expiration", in: reply).flatMap(Self.date))
    }

    /// IMDSv2: a session token from a PUT, then the role's name, then its credentials. A service
    /// that cannot be reached, or has no role, has none to give.
    private func instanceRole(at endpoint: URL) async throws(RemoteFailure) -> Credentials? {
        let what = "The instance metadata service"
        let base = endpoint.appendingPathComponent("latest")
        let session: String
        do {
            session = String(decoding: try await send(
                base.appendingPathComponent("api/token"), method: .put(body: Data()),
                headers: ["X-aws-ec2-metadata-token-ttl-seconds": "21600"], asking: what, timeout: .seconds(1)), as: UTF8.self)
        } catch where error.kind == .unreachable {
            return nil
        }
        let headers = ["X-aws-ec2-metadata-token": session.trimmingWhitespace().description]
        let roles = base.appendingPathComponent("meta-data/iam/security-credentials")
        let names: String
        do {
            names = String(decoding: try await send(roles.appendingPathComponent(""), headers: headers, asking: what, timeout: .seconds(1)), as: UTF8.self)
        } catch where error.kind == .other {
            return nil  // no role attached (404)
        }
        guard let role = names.split(whereSeparator: \.isNewline).first.map({ String($0.trimmingWhitespace()) }), !role.isEmpty else { return nil }
        let reply = try await send(roles.appendingPathComponent(role), headers: headers, asking: what, timeout: .seconds(1))
        return try decodeJSON(reply, from: what)
    }

    /// The JSON both endpoints answer: `AccessKeyId`, `SecretAccessKey`, `Token`, `Expiration`.
    private func decodeJSON(_ reply: Data, from what: String) throws(RemoteFailure) -> Credentials {
        struct Reply: Decodable {
            var AccessKeyId: String
            var SecretAccessKey: String
            var Token: String?
            var Expiration: String?
        }
        guard let decoded = try? JSONDecoder().decode(Reply.self, from: reply) else {
            throw RemoteFailure(kind: .other, reason: "\(what) answered without credentials.")
        }
        return Credentials(key: decoded.AccessKeyId, secret: decoded.SecretAccessKey, token: decoded.Token,
                           expiration: decoded.Expiration.flatMap(Self.date))
    }

    /// The body of a 2xx reply to `url`; the failure, sorted as the tier's are, otherwise.
    private func send(
        _ url: URL, method: DownloadRequest.Method = .get, headers: [String: String], asking what: String, timeout: Duration? = nil
    ) async throws(RemoteFailure) -> Data {
        let options = DownloadRequest.Options(
            timeout: timeout ?? self.timeout, totalTimeout: .seconds(10), maxBytes: 64 << 10, maxRedirects: 0,
            errorBodyLimit: RemoteTransfers.errorBodyLimit)
        do {
            return try await downloader.load(DownloadRequest(url: url, headers: headers, options: options, method: method)).body
        } catch {
            var reason = "\(what) failed: \(error.reason)"
            if case .http(let status) = error.kind {
                reason = "\(what) answered \(status)\(error.replyBody.flatMap(S3ErrorReply.init).map { " \($0.summary)" } ?? "")."
                let kind: RemoteFailure.Kind = status == 401 || status == 403 ? .refused(status: status) : .other
                throw RemoteFailure(kind: kind, reason: reason)
            }
            switch error.kind {
            case .connect, .dns, .timeout, .tls: throw RemoteFailure(kind: .unreachable, reason: reason)
            default: throw RemoteFailure(kind: .transient, reason: reason)
            }
        }
    }

    private func readToken(_ path: String, variable: String) throws(RemoteFailure) -> String {
        guard let data = FileManager.default.contents(atPath: path),
              case let token = String(decoding: data, as: UTF8.self).trimmingWhitespace(), !token.isEmpty else {
            throw RemoteFailure(kind: .other, reason: "The token file \(path) (\(variable)) cannot be read or is empty.")
        }
        return String(token)
    }

    /// RFC 3986's unreserved characters kept, every other byte percent-encoded.
    static func queryEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// An ISO 8601 time as STS and the metadata services write it, with or without fractions
    /// of a second.
    static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
