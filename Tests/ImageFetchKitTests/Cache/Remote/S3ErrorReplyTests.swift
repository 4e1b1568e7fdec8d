@testable import ImageFetchKit
import FoundationEssentials
import XCTest

/// The code and message read from an S3 error document, as S3 and moto write them.
final class S3ErrorReplyTests: XCTestCase {
    func testTheCodeAndMessageAreReadFromAnS3ErrorDocument() throws {
        let body = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>
            """.utf8)
        let reply = try XCTUnwrap(S3ErrorReply(body))
        XCTAssertEqual(reply.code, "AccessDenied")
        XCTAssertEqual(reply.summary, "AccessDenied: Access Denied")
    }

    func testEntitiesAreDecodedAndAMissingMessageLeavesTheCode() throws {
        let reply = try XCTUnwrap(S3ErrorReply(Data("<Error>\n  <Code> SlowDown </Code>\n  <Message>Reduce &lt;your&gt; rate &amp;amp; retry</Message></Error>".utf8)))
        XCTAssertEqual(reply.summary, "SlowDown: Reduce <your> rate &amp; retry")
        XCTAssertEqual(try XCTUnwrap(S3ErrorReply(Data("<Error><Code>NoSuchBucket</Code></Error>".utf8))).summary, "NoSuchBucket")
    }

    func testABodyWithoutACodeIsNoS3Error() {
        XCTAssertNil(S3ErrorReply(Data("<html><body><h1>403 Forbidden</h1></body></html>".utf8)))
        XCTAssertNil(S3ErrorReply(Data("<Error><Code></Code></Error>".utf8)))
        XCTAssertNil(S3ErrorReply(Data("<Error><Code>cut short".utf8)))
        XCTAssertNil(S3ErrorReply(Data()))
    }
}
