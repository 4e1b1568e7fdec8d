import Foundation
import XCTest

final class BinaryTests: XCTestCase {
    func testVersionFlagPrintsTheVersionAndSucceeds() throws {
        let result = try Imgfetch.run(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0.1.0")
    }
}
