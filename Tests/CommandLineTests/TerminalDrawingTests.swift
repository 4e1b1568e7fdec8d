import Foundation
import ImageFetchKit
import XCTest
@testable import imgfetch

/// `imgfetch show`'s two ways of drawing pixels, and how it sizes them to the terminal.
final class TerminalDrawingTests: XCTestCase {
    private func image(width: Int, height: Int, _ pixels: [RGBA]) throws -> DecodedImage {
        try XCTUnwrap(DecodedImage(
            info: ImageInfo(format: .png, width: width, height: height), width: width, height: height,
            pixels: pixels.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }))
    }

    func testHalfBlocksPutTwoPixelRowsInEachLine() throws {
        let red = RGBA(red: 255, green: 0, blue: 0), blue = RGBA(red: 0, green: 0, blue: 255)
        let clear = RGBA(red: 9, green: 9, blue: 9, alpha: 0)
        // 2×3: rows (red, blue), (blue, blue), (clear, red).
        let text = HalfBlockRenderer.render(try image(width: 2, height: 3, [red, blue, blue, blue, clear, red]))
        let esc = "\u{1B}["
        XCTAssertEqual(text, [
            "\(esc)0m\(esc)38;2;255;0;0m\(esc)48;2;0;0;255m▀\(esc)0m\(esc)38;2;0;0;255m\(esc)48;2;0;0;255m▀\(esc)0m",
            // The last row has no pixel below; a transparent pixel keeps the terminal's background.
            "\(esc)0m \(esc)0m\(esc)38;2;255;0;0m▀\(esc)0m",
            "",
        ].joined(separator: "\n"))
    }

    func testHalfBlocksShowALowerPixelUnderATransparentOneWithALowerBlock() throws {
        let green = RGBA(red: 0, green: 200, blue: 0), clear = RGBA(red: 0, green: 0, blue: 0, alpha: 10)
        let text = HalfBlockRenderer.render(try image(width: 1, height: 2, [clear, green]))
        XCTAssertEqual(text, "\u{1B}[0m\u{1B}[38;2;0;200;0m▄\u{1B}[0m\n")
    }

    func testKittyGraphicsSendsTheRGBAInChunksOfAtMost4096Bytes() throws {
        let pixel = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
        let big = try image(width: 40, height: 30, Array(repeating: pixel, count: 1200))  // 4800 bytes, 6400 in base64
        let text = KittyGraphics.render(big)
        let chunks = text.dropLast().components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        XCTAssertEqual(chunks.count, 2)
        XCTAssertTrue(chunks[0].hasPrefix("\u{1B}_Ga=T,f=32,s=40,v=30,q=2,m=1;"), chunks[0])
        XCTAssertTrue(chunks[1].hasPrefix("\u{1B}_Gm=0;"), chunks[1])
        let payloads = chunks.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }
        XCTAssertEqual(payloads.map(\.count), [4096, 6400 - 4096])
        XCTAssertEqual(Data(base64Encoded: payloads.joined()), Data(big.pixels))
        XCTAssertTrue(text.hasSuffix("\n"))
    }

    func testKittySupportIsReadFromTheEnvironment() {
        XCTAssertTrue(KittyGraphics.isSupported(environment: { $0 == "TERM" ? "xterm-kitty" : nil }))
        XCTAssertTrue(KittyGraphics.isSupported(environment: { $0 == "KITTY_WINDOW_ID" ? "1" : nil }))
        XCTAssertTrue(KittyGraphics.isSupported(environment: { $0 == "TERM_PROGRAM" ? "WezTerm" : nil }))
        XCTAssertFalse(KittyGraphics.isSupported(environment: { $0 == "TERM" ? "xterm-256color" : nil }))
    }

    func testTheBoxLeavesTwoRowsAndUsesTheCellsPixelSize() {
        let plain = TerminalSize(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0)
        XCTAssertTrue(ShowCommand.box(for: plain, columns: 80, kitty: false) == (80, 44))
        XCTAssertTrue(ShowCommand.box(for: plain, columns: 40, kitty: true) == (320, 352))
        let known = TerminalSize(columns: 100, rows: 50, pixelWidth: 1000, pixelHeight: 1000)
        XCTAssertTrue(ShowCommand.box(for: known, columns: 100, kitty: true) == (1000, 960))
    }
}
