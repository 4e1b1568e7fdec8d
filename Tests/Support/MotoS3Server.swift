import Foundation
import Synchronization

/// moto's S3 API server (PyPI `moto[server]`) on 127.0.0.1 for one test, with one bucket made.
/// With `checkingSignatures`, moto's IAM mode is on after the set-up calls
/// (`INITIAL_NO_AUTH_ACTION_COUNT`): requests must be signed with the key pair it created.
public final class MotoS3Server: Sendable {
    /// `http://127.0.0.1:PORT`, for `AWS_ENDPOINT_URL`.
    public let endpoint: URL
    public let bucket: String
    /// The key pair to sign with (any pair when signatures are not checked).
    public let accessKey: String
    public let secretKey: String
    /// The ARN of the role made with `role:` (allowed everything), for web identity.
    public let roleARN: String?
    private let process: Mutex<Process?>

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// With `role`, a role of that name is made too, and one more unauthenticated call is left
    /// for the worker's first: its unsigned STS `AssumeRoleWithWebIdentity` (moto checks every
    /// call in its IAM mode, that one included).
    public static func start(bucket: String, checkingSignatures: Bool, role: String? = nil) throws -> MotoS3Server {
        let port = try LocalPort.free()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"]
        var environment = ProcessInfo.processInfo.environment
        // The set-up's calls: create the bucket, the user, its policy and its key.
        if checkingSignatures { environment["INITIAL_NO_AUTH_ACTION_COUNT"] = role == nil ? "4" : "7" }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LocalPort.waitUntilListening(port, process: process, timeout: .seconds(60)) else {
            process.waitUntilExit()
            throw Unavailable(description: "moto's server did not start (pip install 'moto[server]'; scripts/deps test installs it)")
        }
        let endpoint = URL(string: "http://127.0.0.1:\(port)")!
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        setup.arguments = ["python3", scriptPath, endpoint.absoluteString, bucket] + (checkingSignatures ? ["--iam"] : [])
        let output = Pipe()
        setup.standardOutput = output
        try setup.run()
        let words = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
        setup.waitUntilExit()
        guard setup.terminationStatus == 0, words.count == 2 else {
            process.terminate()
            process.waitUntilExit()
            throw Unavailable(description: "the S3 set-up failed (status \(setup.terminationStatus))")
        }
        var roleARN: String?
        if let role {
            let roleSetup = Process()
            roleSetup.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            roleSetup.arguments = ["python3", roleScriptPath, endpoint.absoluteString, role]
            let roleOutput = Pipe()
            roleSetup.standardOutput = roleOutput
            try roleSetup.run()
            roleARN = String(decoding: roleOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            roleSetup.waitUntilExit()
            guard roleSetup.terminationStatus == 0, roleARN?.hasPrefix("arn:") == true else {
                process.terminate()
                process.waitUntilExit()
                throw Unavailable(description: "the role set-up failed (status \(roleSetup.terminationStatus))")
            }
        }
        return MotoS3Server(
            endpoint: endpoint, bucket: bucket, accessKey: String(words[0]),
            secretKey: words[1].trimmingCharacters(in: .whitespacesAndNewlines), roleARN: roleARN, process: process)
    }

    private init(endpoint: URL, bucket: String, accessKey: String, secretKey: String, roleARN: String?, process: sending Process) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.roleARN = roleARN
        self.process = Mutex(process)
    }

    deinit { stop() }

    public func stop() {
        guard let running = process.withLock({ value in defer { value = nil }; return value }) else { return }
        running.terminate()
        running.waitUntilExit()
    }

    /// Temporary credentials for the role made with `role:` (STS `AssumeRole`, signed with the
    /// user's key pair): what a metadata service would hand out, session token and all, which
    /// moto checks (a token it did not issue is refused).
    public func assumeRole() throws -> (key: String, secret: String, token: String) {
        let assume = Process()
        assume.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        assume.arguments = ["python3", "-c", """
            import boto3, sys
            sts = boto3.client("sts", endpoint_url=sys.argv[1], region_name="us-east-1",
                               aws_access_key_id=sys.argv[3], aws_secret_access_key=sys.argv[4])
            c = sts.assume_role(RoleArn=sys.argv[2], RoleSessionName="metadata")["Credentials"]
            print(c["AccessKeyId"], c["SecretAccessKey"], c["SessionToken"])
            """, endpoint.absoluteString, roleARN ?? "", accessKey, secretKey]
        let output = Pipe()
        assume.standardOutput = output
        try assume.run()
        let words = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        assume.waitUntilExit()
        guard assume.terminationStatus == 0, words.count == 3 else {
            throw Unavailable(description: "STS AssumeRole on moto failed (status \(assume.terminationStatus))")
        }
        return (String(words[0]), String(words[1]), String(words[2]))
    }

    /// The keys of the bucket's objects, listed through the signed API with `python3` and boto3.
    public func objectKeys() throws -> [String] {
        let list = Process()
        list.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        list.arguments = ["python3", "-c", """
            import boto3, sys
            s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                              aws_access_key_id=sys.argv[3], aws_secret_access_key=sys.argv[4])
            for page in s3.get_paginator("list_objects_v2").paginate(Bucket=sys.argv[2]):
                for item in page.get("Contents", []):
                    print(item["Key"])
            """, endpoint.absoluteString, bucket, accessKey, secretKey]
        let output = Pipe()
        list.standardOutput = output
        try list.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        list.waitUntilExit()
        return text.split(separator: "\n").map(String.init).sorted()
    }

    static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/s3setup.py").path
    static let roleScriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/s3rolesetup.py").path
}
