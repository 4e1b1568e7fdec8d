@testable import ImageFetchKit
import Foundation
import TestSupport
import XCTest

/// The credential chain's order, as the AWS CLI (botocore) walks it: the variables, web identity,
/// the shared files, the container endpoint, the instance metadata service.
final class AWSCredentialChainTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    // XCTest keeps every test case until the process ends, so the directory goes now or never.
    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    private func s3(_ environment: [String: String]) throws -> RemoteCacheLocation.S3Location {
        let location = try RemoteCacheLocation(parsing: "s3://images/ci", environment: { environment[$0] })
        guard case .s3(let s3) = location else { throw XCTSkip("not s3: \(location)") }
        return s3
    }

    func testEachLinkGivesWayToTheOneBeforeIt() throws {
        let profile = try directory.write(Data("[default]\naws_access_key_id = AKPROFILE\naws_secret_access_key = s\n".utf8), to: "credentials").path
        let webIdentity = ["AWS_WEB_IDENTITY_TOKEN_FILE": "/run/token", "AWS_ROLE_ARN": "arn:aws:iam::1:role/r"]
        let container = ["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:9/creds"]
        let files = ["AWS_SHARED_CREDENTIALS_FILE": profile, "AWS_CONFIG_FILE": "/nonexistent"]
        let keys = ["AWS_ACCESS_KEY_ID": "AKVAR", "AWS_SECRET_ACCESS_KEY": "s"]

        let all = try s3(keys.merging(webIdentity) { $1 }.merging(files) { $1 }.merging(container) { $1 })
        XCTAssertEqual(all.credentials?.user, "AKVAR")
        XCTAssertNil(all.credentialSource)

        let noVariables = try s3(webIdentity.merging(files) { $1 }.merging(container) { $1 })
        XCTAssertNil(noVariables.credentials, "web identity comes before the shared files, as in botocore")
        guard case .webIdentity(let tokenFile, let role, _, let endpoint) = noVariables.credentialSource else {
            return XCTFail("\(String(describing: noVariables.credentialSource))")
        }
        XCTAssertEqual(tokenFile, "/run/token")
        XCTAssertEqual(role, "arn:aws:iam::1:role/r")
        XCTAssertEqual(endpoint.absoluteString, "https://sts.us-east-1.amazonaws.com")

        let profileNext = try s3(files.merging(container) { $1 })
        XCTAssertEqual(profileNext.credentials?.user, "AKPROFILE")
        XCTAssertNil(profileNext.credentialSource)

        let containerNext = try s3(container.merging(["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_CONFIG_FILE": "/nonexistent"]) { $1 })
        XCTAssertEqual(containerNext.credentialSource, .container(url: URL(string: "http://127.0.0.1:9/creds")!, authorization: nil, authorizationFile: nil))

        let last = try s3(["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_CONFIG_FILE": "/nonexistent"])
        XCTAssertEqual(last.credentialSource, .instanceMetadata(endpoint: URL(string: "http://169.254.169.254")!))
        let disabled = try s3(["AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_EC2_METADATA_DISABLED": "TRUE"])
        XCTAssertNil(disabled.credentialSource, "no source at all: unsigned requests")
        XCTAssertNil(disabled.credentials)
    }

    func testEndpointsAndTokensComeFromTheirVariables() throws {
        let sts = try s3([
            "AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r", "AWS_ROLE_SESSION_NAME": "job-7",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:1", "AWS_ENDPOINT_URL_STS": "http://127.0.0.1:2", "AWS_REGION": "eu-west-3",
        ])
        XCTAssertEqual(sts.credentialSource, .webIdentity(tokenFile: "/t", roleARN: "arn:r", sessionName: "job-7", endpoint: URL(string: "http://127.0.0.1:2")!))
        let regional = try s3(["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r", "AWS_REGION": "eu-west-3"])
        guard case .webIdentity(_, _, let session, let endpoint) = regional.credentialSource else { return XCTFail() }
        XCTAssertEqual(endpoint.absoluteString, "https://sts.eu-west-3.amazonaws.com")
        XCTAssertTrue(session.hasPrefix("imgfetch-"), session)

        let relative = try s3(["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/credentials/abc", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "/var/run/token"])
        XCTAssertEqual(relative.credentialSource, .container(
            url: URL(string: "http://169.254.170.2/v2/credentials/abc")!, authorization: nil, authorizationFile: "/var/run/token"))

        let imds = try s3(["AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:3"])
        XCTAssertEqual(imds.credentialSource, .instanceMetadata(endpoint: URL(string: "http://127.0.0.1:3")!))
    }

    func testAnEndpointVariableThatIsNoURLIsAnEnvironmentError() {
        for environment in [
            ["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r", "AWS_ENDPOINT_URL_STS": "sts.local"],
            ["AWS_CONTAINER_CREDENTIALS_FULL_URI": "ftp://x/creds"],
            ["AWS_EC2_METADATA_SERVICE_ENDPOINT": "not a url"],
        ] {
            XCTAssertThrowsError(try RemoteCacheLocation(parsing: "s3://images", environment: { environment[$0] })) { error in
                XCTAssertTrue((error as? RemoteCacheLocation.ParseError)?.comesFromEnvironment == true, "\(environment): \(error)")
            }
        }
    }

    func testTheSTSQueryIsPercentEncodedAndExpiriesParse() throws {
        XCTAssertEqual(AWSCredentialProvider.queryEncoded("arn:aws:iam::1:role/a b+é"), "arn%3Aaws%3Aiam%3A%3A1%3Arole%2Fa%20b%2B%C3%A9")
        XCTAssertEqual(AWSCredentialProvider.queryEncoded("eyJ.a-b_c~"), "eyJ.a-b_c~")
        let plain = try XCTUnwrap(AWSCredentialProvider.date("2026-11-27T06:00:00Z"))
        XCTAssertEqual(plain.timeIntervalSince1970, 1_795_759_200)
        let fractional = try XCTUnwrap(AWSCredentialProvider.date("2026-11-27T06:00:00.250Z"))
        XCTAssertEqual(fractional.timeIntervalSince1970, 1_795_759_200.25, accuracy: 0.001)
        XCTAssertNil(AWSCredentialProvider.date("tomorrow"))
    }

    func testTemporaryCredentialsAreFetchedAgainWithinFiveMinutesOfTheirExpiry() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let credentials = { (expiry: TimeInterval?) in
            AWSCredentialProvider.Credentials(key: "k", secret: "s", token: "t", expiration: expiry.map { now.addingTimeInterval($0) })
        }
        XCTAssertFalse(AWSCredentialProvider.isExpiring(credentials(nil), at: now))
        XCTAssertFalse(AWSCredentialProvider.isExpiring(credentials(301), at: now))
        XCTAssertTrue(AWSCredentialProvider.isExpiring(credentials(299), at: now))
        XCTAssertTrue(AWSCredentialProvider.isExpiring(credentials(-1), at: now))
    }
}
