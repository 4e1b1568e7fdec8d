import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// TLS is verified by default; a custom CA or an explicit insecure opt-in makes a self-signed server work.
final class DownloaderTLSTests: DownloadTestCase {
    private var tlsServer: TestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try serveFile("a.jpg", bytes: 5000)
        tlsServer = try TestServer.start(root: directory.url, tls: true)
    }

    override func tearDown() {
        tlsServer?.stop()
        tlsServer = nil
        super.tearDown()
    }

    func testSelfSignedCertificateFailsVerificationByDefault() async throws {
        let url = tlsServer.url("/a.jpg")
        let error = await loadError(makeDownloader(), DownloadRequest(url: url))
        XCTAssertEqual(error?.kind, .tls)
        XCTAssertNotNil(error?.detail)
    }

    func testInsecureOptInSkipsVerification() async throws {
        let response = try await makeDownloader().load(DownloadRequest(url: tlsServer.url("/a.jpg"), options: .init(insecure: true)))
        XCTAssertEqual(response.body.count, 5000)
    }

    func testCustomCAFileVerifiesTheServer() async throws {
        let options = DownloadRequest.Options(caFile: tlsServer.certificateFile)
        let response = try await makeDownloader().load(DownloadRequest(url: tlsServer.url("/a.jpg"), options: options))
        XCTAssertEqual(response.body.count, 5000)
    }

    func testInsecureAndVerifiedRequestsForOneURLAreNotCoalesced() async throws {
        let downloader = makeDownloader()
        let url = tlsServer.url("/a.jpg", ["hold": "go"])
        async let verified = { try? await downloader.load(DownloadRequest(url: url)) }()
        async let insecure = downloader.load(DownloadRequest(url: url, options: .init(insecure: true)))
        try await tlsServer.waitForHeldRequests(1, to: "/a.jpg")
        try tlsServer.release("go")
        let (refused, accepted) = try await (verified, insecure)
        XCTAssertNil(refused, "a verified request never rides on an insecure transfer")
        XCTAssertEqual(accepted.body.count, 5000)
    }
}
