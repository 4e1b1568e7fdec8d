import Foundation
import XCTest
@testable import ImageFetchKit

final class ReceivedBodyTests: XCTestCase {
    /// Bytes received into the room and appended come out whole, past the first guess of a size.
    func testBytesComeOutInOrderAsTheBodyGrows() {
        let body = ReceivedBody(capacity: 10)
        let expected = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var offset = 0
        while offset < expected.count {
            if offset % 2 == 0 {
                let room = body.room(atMost: 1000)
                let count = min(room.count, expected.count - offset)
                expected.withUnsafeBytes { room.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
                body.didReceive(count)
                offset += count
            } else {
                let count = min(333, expected.count - offset)
                expected.withUnsafeBytes { body.append(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
                offset += count
            }
        }
        XCTAssertEqual(body.count, expected.count)
        XCTAssertEqual(body.takeData(), expected)
        XCTAssertEqual(body.count, expected.count, "the count stays; the memory went to the Data")
    }

    /// A body that never grew to anything is empty Data.
    func testAnEmptyBodyIsEmptyData() {
        XCTAssertEqual(ReceivedBody(capacity: 1000).takeData(), Data())
    }
}
