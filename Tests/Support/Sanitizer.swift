import Foundation
import XCTest

/// Skips a test that measures the process's memory when the suite runs under a sanitizer
/// (`scripts/test --sanitize KIND` sets IMGFETCH_TEST_SANITIZER): the sanitizers' allocators keep
/// freed memory in quarantine and add shadow memory, so resident-size figures mean something else.
public func skipUnderSanitizer() throws {
    if let kind = ProcessInfo.processInfo.environment["IMGFETCH_TEST_SANITIZER"], !kind.isEmpty {
        throw XCTSkip("measures memory, which \(kind) sanitizer's allocator changes")
    }
}
