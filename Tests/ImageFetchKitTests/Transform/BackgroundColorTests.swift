import XCTest
@testable import ImageFetchKit

final class BackgroundColorTests: XCTestCase {
    func testHexAndCSSNamesAreRead() {
        XCTAssertEqual(BackgroundColor(parsing: "#ff000080"), BackgroundColor(red: 255, green: 0, blue: 0, alpha: 128))
        XCTAssertEqual(BackgroundColor(parsing: "#00FF7f"), BackgroundColor(red: 0, green: 255, blue: 127))
        XCTAssertEqual(BackgroundColor(parsing: "white"), .white)
        XCTAssertEqual(BackgroundColor(parsing: "transparent"), .clear)
        XCTAssertEqual(BackgroundColor(parsing: "RebeccaPurple"), BackgroundColor(red: 0x66, green: 0x33, blue: 0x99))
        XCTAssertEqual(BackgroundColor(parsing: "gray"), BackgroundColor(red: 128, green: 128, blue: 128))
        XCTAssertEqual(BackgroundColor.cssNames.count, 148)
        for text in ["", "#", "#ff00", "#ff00000", "#gg0000", "redd", "rgb(1,2,3)"] {
            XCTAssertNil(BackgroundColor(parsing: text), text)
        }
    }

    func testTheNormalFormIsLowerCaseHexWithAlpha() {
        XCTAssertEqual(BackgroundColor(parsing: "Navy")?.description, "#000080ff")
        XCTAssertEqual(BackgroundColor.clear.description, "#00000000")
    }
}
