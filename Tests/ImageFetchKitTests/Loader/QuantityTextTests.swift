import XCTest
@testable import ImageFetchKit

final class QuantityTextTests: XCTestCase {
    func testSizesTakeBinarySuffixes() {
        XCTAssertEqual(QuantityText.bytes("512"), 512)
        XCTAssertEqual(QuantityText.bytes("512K"), 512 * 1024)
        XCTAssertEqual(QuantityText.bytes("20M"), 20 * 1024 * 1024)
        XCTAssertEqual(QuantityText.bytes("1.5GiB"), 1536 * 1024 * 1024)
        XCTAssertNil(QuantityText.bytes("lots"))
        XCTAssertNil(QuantityText.bytes("10Q"))
    }

    func testDurationsTakeUnitSuffixesAndBareNumbersAreSeconds() {
        XCTAssertEqual(QuantityText.seconds("90"), 90)
        XCTAssertEqual(QuantityText.seconds("250ms"), 0.25)
        XCTAssertEqual(QuantityText.seconds("12h"), 12 * 3600)
        XCTAssertEqual(QuantityText.seconds("7d"), 7 * 86400)
        XCTAssertEqual(QuantityText.seconds("2w"), 14 * 86400)
        XCTAssertNil(QuantityText.seconds("soon"))
        XCTAssertNil(QuantityText.seconds("5y"))
    }
}
