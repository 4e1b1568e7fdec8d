import Foundation
import TestSupport
import XCTest

/// The credential chain's links that ask a service, each signing uploads moto checks (its IAM
/// mode, session tokens included): web identity through moto's STS, the container endpoint and
/// IMDSv2 through `FakeMetadataServer`, which hands out temporary credentials moto's STS issued.
final class S3CredentialChainTests: RemoteCacheTestCase {
    private func startMoto(role: String? = nil) throws -> MotoS3Server {
        do { return try MotoS3Server.start(bucket: "images", checkingSignatures: true, role: role) } catch let error as MotoS3Server.Unavailable {
            throw XCTSkip(error.description)
        }
    }

    /// No keys and no shared files: the chain goes on to the links under test.
    private func environment(_ s3: MotoS3Server, _ more: [String: String]) -> [String: String] {
        [
            "AWS_ENDPOINT_URL": s3.endpoint.absoluteString, "AWS_REGION": "us-east-1",
            "AWS_SHARED_CREDENTIALS_FILE": directory.path("none").path, "AWS_CONFIG_FILE": directory.path("none").path,
        ].merging(more) { $1 }
    }

    func testWebIdentityAssumesTheRoleThroughSTSAndSignsWithItsSessionToken() throws {
        let s3 = try startMoto(role: "imgfetch-worker")
        let token = try directory.write(Data("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2ln\n".utf8), to: "token")
        let list = try writeList(distinctURLs(4))

        let result = try worker("w", ["prefetch", "-v", "--remote-cache", "s3://images/wi", list], environment: environment(s3, [
            "AWS_WEB_IDENTITY_TOKEN_FILE": token.path, "AWS_ROLE_ARN": s3.roleARN!, "AWS_ROLE_SESSION_NAME": "ci-job",
        ]))

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(warnings(result), [], result.stderr)
        XCTAssertTrue(result.stderr.contains("credentials from web identity for \(s3.roleARN!) from STS at \(s3.endpoint.absoluteString)"), result.stderr)
        XCTAssertEqual(try s3.objectKeys().count, 4, "moto took the assumed role's signatures and session token")
    }

    func testAMissingWebIdentityTokenIsOneWarningAndTheRunUsesTheOrigin() throws {
        let s3 = try startMoto()
        let list = try writeList(distinctURLs(3))

        let result = try worker("w", ["prefetch", "--json", "--remote-cache", "s3://images/wi", list], environment: environment(s3, [
            "AWS_WEB_IDENTITY_TOKEN_FILE": directory.path("no-token").path, "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/r",
        ]))

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try originRequests(), 3)
        XCTAssertEqual(warnings(result).count, 1, result.stderr)
        XCTAssertTrue(warnings(result)[0].contains("AWS_WEB_IDENTITY_TOKEN_FILE"), result.stderr)
        XCTAssertEqual(try s3.objectKeys(), [])
    }

    func testTheInstanceMetadataServiceIsAskedWithAnIMDSv2SessionToken() throws {
        let s3 = try startMoto(role: "instance-role")
        let role = try s3.assumeRole()
        let metadata = try FakeMetadataServer.start(key: role.key, secret: role.secret, token: role.token)
        let list = try writeList(distinctURLs(4))

        let result = try worker("w", ["prefetch", "-v", "--remote-cache", "s3://images/imds", list], environment: environment(s3, [
            "AWS_EC2_METADATA_SERVICE_ENDPOINT": metadata.endpoint.absoluteString,
        ]))

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(warnings(result), [], result.stderr)
        XCTAssertTrue(result.stderr.contains("credentials from the instance metadata service at \(metadata.endpoint.absoluteString)"), result.stderr)
        XCTAssertEqual(try s3.objectKeys().count, 4, "moto took the signatures and the session token served")
        let stats = try metadata.stats()
        XCTAssertEqual(stats.token_puts, 1)
        XCTAssertEqual(stats.role_lists, 1)
        XCTAssertEqual(stats.credential_gets, 1, "fetched once for every request of the run")
        XCTAssertEqual(stats.refused, 0, "every GET carried the session token")
    }

    func testTheContainerEndpointComesBeforeTheInstanceMetadataAndGetsItsAuthorization() throws {
        let s3 = try startMoto(role: "task-role")
        let role = try s3.assumeRole()
        let metadata = try FakeMetadataServer.start(key: role.key, secret: role.secret, token: role.token, authorization: "Bearer pod-identity")
        let authorization = try directory.write(Data("Bearer pod-identity\n".utf8), to: "authorization")
        let list = try writeList(distinctURLs(3))

        let result = try worker("w", ["prefetch", "-v", "--remote-cache", "s3://images/ecs", list], environment: environment(s3, [
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": metadata.containerURL.absoluteString,
            "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": authorization.path,
            "AWS_EC2_METADATA_SERVICE_ENDPOINT": metadata.endpoint.absoluteString,
        ]))

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(warnings(result), [], result.stderr)
        XCTAssertTrue(result.stderr.contains("credentials from the container endpoint \(metadata.containerURL.absoluteString)"), result.stderr)
        XCTAssertEqual(try s3.objectKeys().count, 3)
        let stats = try metadata.stats()
        XCTAssertEqual(stats.container_gets, 1)
        XCTAssertEqual(stats.refused, 0)
        XCTAssertEqual(stats.token_puts, 0, "the instance metadata service is not asked")
    }
}
