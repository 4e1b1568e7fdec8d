import Foundation
import XCTest
@testable import ImageFetchKit

/// Parsing and rendering `--name` templates: what is refused up front, what per URL.
final class OutputNameTemplateTests: XCTestCase {
    private func facts(_ url: String, _ format: ImageFormat = .png) -> OutputFacts {
        OutputFacts(url: url, format: format, width: 64, height: 48, key: "abc", index: 3, line: 7)
    }

    private func reason(_ text: String) -> String? {
        do {
            _ = try OutputNameTemplate(parsing: text)
            return nil
        } catch {
            guard case .badTemplate(_, let reason) = error else { return "\(error)" }
            return reason
        }
    }

    func testTemplatesThatCanNeverNameAFileInsideAreRefused() {
        XCTAssertEqual(reason("../{name}"), "a '.' or '..' folder would leave the output directory or name it")
        XCTAssertEqual(reason("a/../../{name}"), "a '.' or '..' folder would leave the output directory or name it")
        XCTAssertEqual(reason("/abs/{name}"), "it is an absolute path; names are made inside the output directory")
        XCTAssertEqual(reason("{name"), "a '{' is never closed")
        XCTAssertEqual(reason("name}"), "a '}' has no '{'")
        XCTAssertEqual(reason(""), "it is empty")
        XCTAssertTrue(reason("{url}")?.hasPrefix("{url} is not a field; the fields are {name} {stem}") ?? false)
        // A field next to dots is not a '..' folder: its value decides.
        XCTAssertNil(reason("..{stem}/{name}"))
        XCTAssertNil(reason("{host}/{path}"))
    }

    func testNameIsTheDecodedLastSegmentWithTheSniffedFormatsExtension() throws {
        let template = OutputNameTemplate.standard
        XCTAssertEqual(try template.name(for: facts("http://h/a/photo%20one.jpeg")), "photo one.png")
        XCTAssertEqual(try template.name(for: facts("http://h/a/b%2Fc.webp", .webp)), "b_c.webp", "an encoded slash makes no folder")
        XCTAssertEqual(try template.name(for: facts("http://h/")), "image.png")
        XCTAssertEqual(try template.name(for: facts("http://h/.hidden")), ".hidden.png")
    }

    func testFieldsRender() throws {
        let template = try OutputNameTemplate(parsing: "{host}/{format}/{width}x{height}-{key}.{ext}")
        XCTAssertEqual(try template.name(for: facts("http://example.com:8080/x/y.gif", .jpeg)), "example.com/jpeg/64x48-abc.jpg")
        let path = try OutputNameTemplate(parsing: "{path}")
        XCTAssertEqual(try path.name(for: facts("http://h/a/b/c.png?q=1")), "a/b/c.png")
        let numbered = try OutputNameTemplate(parsing: "{line}-{index}.{ext}")
        XCTAssertEqual(try numbered.name(for: facts("http://h/x.png")), "7-3.png")
        let unlisted = OutputFacts(url: "http://h/x.png", format: .png, width: 1, height: 1, key: nil, index: 2)
        XCTAssertEqual(try numbered.name(for: unlisted), "2-2.png", "without a list, the line is the position")
    }

    func testAURLPathWithDotDotIsRefusedForThatURL() throws {
        let path = try OutputNameTemplate(parsing: "{path}")
        XCTAssertThrowsError(try path.name(for: facts("http://h/a/%2E%2E/%2E%2E/etc/passwd"))) { error in
            XCTAssertEqual(error as? OutputError, .nameLeavesDirectory(name: "a/../../etc/passwd"))
        }
    }
}
