import Foundation
import TestSupport
import XCTest

/// The remote tier on an S3 API served locally by moto (`moto[server]` from PyPI), signed with
/// AWS Signature Version 4 by libcurl.
///
/// What moto checks in its IAM mode (measured with curl against moto 5): the signature over the
/// request (a wrong secret, an unknown key id or another region's signature get 403
/// SignatureDoesNotMatch / InvalidAccessKeyId). What it does not: that `x-amz-content-sha256`
/// matches the body (a wrong payload hash with a right signature is stored); imgfetch's own
/// content hash in each object covers that.
final class S3RemoteCacheTests: RemoteCacheTestCase {
    private func startMoto(checkingSignatures: Bool) throws -> MotoS3Server {
        do { return try MotoS3Server.start(bucket: "images", checkingSignatures: checkingSignatures) } catch let error as MotoS3Server.Unavailable {
            throw XCTSkip(error.description)
        }
    }

    private func environment(_ s3: MotoS3Server, secret: String? = nil) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": s3.accessKey, "AWS_SECRET_ACCESS_KEY": secret ?? s3.secretKey,
            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": s3.endpoint.absoluteString,
        ]
    }

    func testObjectsLandUnderTheBucketAndPrefixAndAFreshWorkerReadsThemBack() throws {
        let s3 = try startMoto(checkingSignatures: true)
        let urls = distinctURLs(6)
        let list = try writeList(urls)

        for index in 0..<2 {
            let result = try worker("w\(index)", ["prefetch", "--shard", "\(index)/2", "--remote-cache", "s3://images/ci/cache", list],
                                    environment: environment(s3))
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(warnings(result), [], result.stderr)
        }
        let keys = try s3.objectKeys()
        XCTAssertEqual(keys.count, 6, "\(keys)")
        XCTAssertTrue(keys.allSatisfy { $0.hasPrefix("ci/cache/imgfetch-2/") }, "\(keys)")
        XCTAssertEqual(try originRequests(), 6)

        try server.reset()
        let fresh = try worker("fresh", ["prefetch", "--json", "--remote-cache", "s3://images/ci/cache", list], environment: environment(s3))
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(try jsonObjects(fresh.stdout).compactMap { $0["cache"] as? String }, Array(repeating: "remote", count: 6))
        XCTAssertEqual(try originRequests(), 0)
    }

    func testAWrongSecretWarnsOnceAndEveryURLComesFromTheOrigin() throws {
        let s3 = try startMoto(checkingSignatures: true)
        let list = try writeList(distinctURLs(5))

        let result = try worker("w", ["prefetch", "--json", "--remote-cache", "s3://images/ci", list],
                                environment: environment(s3, secret: "not-the-secret-key"))

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try jsonObjects(result.stdout).compactMap { $0["cache"] as? String }, Array(repeating: "network", count: 5))
        XCTAssertEqual(try originRequests(), 5)
        XCTAssertEqual(warnings(result).count, 1, result.stderr)
        // The reply's XML gives the cause, which the status alone does not.
        XCTAssertTrue(warnings(result)[0].contains("(S3 answered 403 SignatureDoesNotMatch: The request signature we calculated does not match"),
                      result.stderr)
        XCTAssertTrue(warnings(result)[0].contains("Check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION"), result.stderr)
        XCTAssertFalse(result.stderr.contains("not-the-secret-key"))
        XCTAssertEqual(try s3.objectKeys(), [], "nothing was written with the wrong secret")
    }
}

/// The credential chain's second link: the profile in the AWS CLI's shared files.
final class S3SharedProfileTests: RemoteCacheTestCase {
    func testAProfileInTheSharedFilesSignsTheRequestsAndGivesTheRegion() throws {
        let s3: MotoS3Server
        do { s3 = try MotoS3Server.start(bucket: "images", checkingSignatures: true) } catch let error as MotoS3Server.Unavailable {
            throw XCTSkip(error.description)
        }
        let home = directory.path("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        try Data("""
            [default]
            aws_access_key_id = wrong-default
            aws_secret_access_key = wrong-default

            [ci]
            aws_access_key_id = \(s3.accessKey)
            aws_secret_access_key = \(s3.secretKey)
            """.utf8).write(to: home.appendingPathComponent(".aws/credentials"))
        try Data("[profile ci]\nregion = us-east-1\n".utf8).write(to: home.appendingPathComponent(".aws/config"))
        let list = try writeList(distinctURLs(3))
        let base = ["HOME": home.path, "AWS_ENDPOINT_URL": s3.endpoint.absoluteString]

        let profiled = try worker("a", ["prefetch", "--remote-cache", "s3://images/p", list], environment: base.merging(["AWS_PROFILE": "ci"]) { $1 })
        XCTAssertEqual(profiled.status, 0, profiled.stderr)
        XCTAssertEqual(warnings(profiled), [], profiled.stderr)
        XCTAssertEqual(try s3.objectKeys().count, 3, "the profile's keys signed the uploads")

        let byDefault = try worker("b", ["prefetch", "--remote-cache", "s3://images/q", list], environment: base)
        XCTAssertEqual(warnings(byDefault).count, 1, "the default profile's wrong keys are refused: \(byDefault.stderr)")
        XCTAssertEqual(try s3.objectKeys().count, 3)

        let variablesFirst = try worker("c", ["prefetch", "--remote-cache", "s3://images/r", list], environment: base.merging([
            "AWS_PROFILE": "default", "AWS_ACCESS_KEY_ID": s3.accessKey, "AWS_SECRET_ACCESS_KEY": s3.secretKey,
        ]) { $1 })
        XCTAssertEqual(warnings(variablesFirst), [], "the variables come before the profile: \(variablesFirst.stderr)")
        XCTAssertEqual(try s3.objectKeys().count, 6)

        let missing = try worker("d", ["prefetch", "--remote-cache", "s3://images/s", list], environment: base.merging(["AWS_PROFILE": "nope"]) { $1 })
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("The AWS profile 'nope' (AWS_PROFILE) is in neither"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("This run goes without the remote cache."), missing.stderr)
    }
}
