import Foundation
import XCTest
@testable import ImageFetchKit

final class CacheLocationTests: XCTestCase {
    private let environment = [
        "IMGFETCH_CACHE_DIR": "/env/cache", "XDG_CACHE_HOME": "/xdg", "HOME": "/home/user",
    ]

    func testExplicitDirectoryWinsOverEverything() throws {
        XCTAssertEqual(try CacheLocation.resolve(explicit: "/explicit", environment: environment), "/explicit")
    }

    func testEnvironmentVariableComesNext() throws {
        XCTAssertEqual(try CacheLocation.resolve(explicit: nil, environment: environment), "/env/cache")
    }

    func testXDGCacheHomeComesAfterTheVariable() throws {
        var environment = environment
        environment["IMGFETCH_CACHE_DIR"] = nil
        XCTAssertEqual(try CacheLocation.resolve(explicit: nil, environment: environment), "/xdg/imgfetch")
    }

    func testRelativeXDGCacheHomeIsIgnoredAsTheSpecSays() throws {
        let environment = ["XDG_CACHE_HOME": "relative/cache", "HOME": "/home/user"]
        XCTAssertEqual(try CacheLocation.resolve(explicit: nil, environment: environment), "/home/user/.cache/imgfetch")
    }

    func testEmptyValuesCountAsUnset() throws {
        let environment = ["IMGFETCH_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": "/home/user"]
        XCTAssertEqual(try CacheLocation.resolve(explicit: "", environment: environment), "/home/user/.cache/imgfetch")
    }

    func testRelativeExplicitDirectoryIsMadeAbsolute() throws {
        let resolved = try CacheLocation.resolve(explicit: "some/cache", environment: [:])
        XCTAssertEqual(resolved, FileManager.default.currentDirectoryPath + "/some/cache")
    }

    func testNoDirectoryAtAllIsAnErrorThatSaysWhatToSet() {
        XCTAssertThrowsError(try CacheLocation.resolve(explicit: nil, environment: [:])) { error in
            XCTAssertEqual(error as? CacheLocation.Error, .noHomeDirectory)
            XCTAssertTrue(String(describing: error).contains("--cache-dir"))
        }
    }

    func testPreparedDirectoryIsPrivateAndTaggedForBackupTools() throws {
        let root = try makeTemporaryDirectory(self)
        let directory = root + "/nested/imgfetch"
        try CacheLocation.prepare(directory: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let tag = try String(contentsOfFile: directory + "/CACHEDIR.TAG", encoding: .utf8)
        XCTAssertTrue(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55"))
        try CacheLocation.prepare(directory: directory)  // idempotent
    }
}
