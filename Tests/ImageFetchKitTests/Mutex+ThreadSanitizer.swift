#if THREAD_SANITIZER
@testable import ImageFetchKit

/// Under ThreadSanitizer, this module's locks are ImageFetchKit's pthread-based `Mutex`, which the
/// sanitizer sees (see Sources/ImageFetchKit/Support/Mutex+ThreadSanitizer.swift); naming it here
/// also settles which of the two imported `Mutex` types these tests mean.
typealias Mutex = ImageFetchKit.Mutex
#endif
