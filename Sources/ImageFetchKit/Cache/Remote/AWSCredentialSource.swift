import FoundationEssentials

extension RemoteCacheLocation {
    /// Where an S3 tier's temporary credentials come from when no keys are given: the links of
    /// the AWS credential chain that ask a service (see `AWSCredentialProvider`).
    public enum AWSCredentialSource: Sendable, Equatable {
        /// STS `AssumeRoleWithWebIdentity` (an EKS service account, a CI job's OIDC token), with
        /// the token read from `tokenFile` at each fetch: the file is rotated under a long run.
        case webIdentity(tokenFile: String, roleARN: String, sessionName: String, endpoint: URL)
        /// The container credentials endpoint (ECS task roles, EKS Pod Identity), with an
        /// `Authorization` value given or read from `authorizationFile` at each fetch.
        case container(url: URL, authorization: String?, authorizationFile: String?)
        /// The instance metadata service of an EC2 instance's role, through IMDSv2 (a session
        /// token from a PUT, then the role's name and credentials). Nothing there, as off EC2,
        /// leaves the requests unsigned.
        case instanceMetadata(endpoint: URL)

        /// Web identity from `AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN` (session name
        /// `AWS_ROLE_SESSION_NAME`), asking STS at `AWS_ENDPOINT_URL_STS`, else `AWS_ENDPOINT_URL`,
        /// else STS in `region`; nil when the two are not both set.
        static func webIdentity(_ value: (String) -> String?, region: String) throws(ParseError) -> Self? {
            guard let tokenFile = value("AWS_WEB_IDENTITY_TOKEN_FILE"), let role = value("AWS_ROLE_ARN") else { return nil }
            let sessionName = value("AWS_ROLE_SESSION_NAME") ?? "imgfetch-\(Int(Date().timeIntervalSince1970))"
            let endpoint: URL
            if let name = ["AWS_ENDPOINT_URL_STS", "AWS_ENDPOINT_URL"].first(where: { value($0) != nil }) {
                endpoint = try httpURL(value(name)!, variable: name)
            } else {
                endpoint = URL(string: "https://sts.\(region).amazonaws.com")!
            }
            return .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: sessionName, endpoint: endpoint)
        }

        /// The container endpoint from `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` (under
        /// 169.254.170.2) or `AWS_CONTAINER_CREDENTIALS_FULL_URI`, with
        /// `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` or `AWS_CONTAINER_AUTHORIZATION_TOKEN`.
        static func container(_ value: (String) -> String?) throws(ParseError) -> Self? {
            let url: URL
            if let relative = value("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
                url = try httpURL("http://169.254.170.2" + relative, variable: "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
            } else if let full = value("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
                url = try httpURL(full, variable: "AWS_CONTAINER_CREDENTIALS_FULL_URI")
            } else {
                return nil
            }
            return .container(
                url: url, authorization: value("AWS_CONTAINER_AUTHORIZATION_TOKEN"),
                authorizationFile: value("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"))
        }

        /// The metadata service at `AWS_EC2_METADATA_SERVICE_ENDPOINT` (else 169.254.169.254);
        /// nil when `AWS_EC2_METADATA_DISABLED` is true.
        static func instanceMetadata(_ value: (String) -> String?) throws(ParseError) -> Self? {
            guard value("AWS_EC2_METADATA_DISABLED")?.lowercased() != "true" else { return nil }
            let text = value("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? "http://169.254.169.254"
            return .instanceMetadata(endpoint: try httpURL(text, variable: "AWS_EC2_METADATA_SERVICE_ENDPOINT"))
        }

        private static func httpURL(_ text: String, variable: String) throws(ParseError) -> URL {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ParseError(description: "\(variable) '\(text)' is not an http or https URL.", comesFromEnvironment: true)
            }
            return url
        }

        /// The source in words for `-v` and warnings, without any secret.
        var summary: String {
            switch self {
            case .webIdentity(_, let role, _, let endpoint): "web identity for \(role) from STS at \(endpoint.absoluteString)"
            case .container(let url, _, _): "the container endpoint \(url.absoluteString)"
            case .instanceMetadata(let endpoint): "the instance metadata service at \(endpoint.absoluteString)"
            }
        }
    }
}
