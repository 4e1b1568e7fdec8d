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

/// The sanitizer the suite runs under (`scripts/test --sanitize KIND`), if any: the binaries it
/// builds run several times slower, which moves what the tier's speed rules see.
public var sanitizerInUse: String? {
    guard let kind = ProcessInfo.processInfo.environment["IMGFETCH_TEST_SANITIZER"], !kind.isEmpty else { return nil }
    return kind
}
