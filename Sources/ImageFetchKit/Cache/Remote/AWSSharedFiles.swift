import FoundationEssentials

/// The AWS CLI's shared files, read as the CLI and SDKs read them: the profile `AWS_PROFILE`
/// names (else `default`), its keys from `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`)
/// and then `~/.aws/config` (`AWS_CONFIG_FILE`, where a profile's section is `[profile NAME]`,
/// except `[default]`), and its `region` from the config file. The second link of the
/// credential chain, after the `AWS_*` variables (see `RemoteCacheLocation`).
struct AWSSharedFiles {
    /// One profile's settings, names lowercased.
    typealias Settings = [String: String]

    let profile: String
    /// Whether the profile was named (`AWS_PROFILE`): then it must exist.
    let isNamed: Bool
    private let credentials: Settings?
    private let config: Settings?

    init(environment: (String) -> String?) {
        func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        let named = value("AWS_PROFILE") ?? value("AWS_DEFAULT_PROFILE")
        profile = named ?? "default"
        isNamed = named != nil
        let home = value("HOME") ?? ""
        let credentialsPath = value("AWS_SHARED_CREDENTIALS_FILE") ?? "\(home)/.aws/credentials"
        let configPath = value("AWS_CONFIG_FILE") ?? "\(home)/.aws/config"
        let name = named ?? "default"
        credentials = Self.read(credentialsPath).flatMap { $0[name] }
        config = Self.read(configPath).flatMap { $0[name == "default" ? "default" : "profile \(name)"] }
    }

    /// Whether either file has a section for the profile.
    var hasProfile: Bool { credentials != nil || config != nil }

    /// The profile's key pair and session token: the credentials file's, else the config file's.
    func keys() throws(RemoteCacheLocation.ParseError) -> (key: String, secret: String, token: String?)? {
        for settings in [credentials, config].compactMap({ $0 }) {
            switch (settings["aws_access_key_id"], settings["aws_secret_access_key"]) {
            case (let key?, let secret?): return (key, secret, settings["aws_session_token"])
            case (nil, nil): continue
            default:
                throw RemoteCacheLocation.ParseError(
                    description: "The AWS profile '\(profile)' has only one of aws_access_key_id and aws_secret_access_key.",
                    comesFromEnvironment: true)
            }
        }
        return nil
    }

    /// The profile's region in the config file.
    var region: String? { config?["region"] }

    /// The sections of the INI file at `path` (nil when it cannot be read): `name = value` lines
    /// under `[section]` headers; `#` and `;` start comments; names are lowercased.
    static func read(_ path: String) -> [String: Settings]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    static func parse(_ text: String) -> [String: Settings] {
        var sections: [String: Settings] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";") else { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                current = name
                sections[name, default: [:]] = sections[name] ?? [:]
                continue
            }
            // A line that starts with whitespace continues a nested setting (s3 = …): not ours.
            guard let section = current, rawLine.first?.isWhitespace != true, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingWhitespace().lowercased()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            sections[section]?[name] = String(value)
        }
        return sections
    }
}
