import Foundation
import TestSupport
import XCTest

/// `prefetch --max-failures N|P%`: a worker whose failures stay within the budget exits 0, and
/// the summary still counts them.
final class FailureBudgetTests: RemoteCacheTestCase {
    /// 8 URLs that load and 2 that answer 404.
    private func listWithTwoFailures() throws -> String {
        try writeList(distinctURLs(8) + [url("/baseline.jpg", ["status": "404", "n": "a"]), url("/alpha.png", ["status": "404", "n": "b"])])
    }

    func testFailuresWithinTheBudgetExitZeroAndAreStillCounted() throws {
        let list = try listWithTwoFailures()
        let expectations: [([String], Int32)] = [
            ([], 1), (["--max-failures", "2"], 0), (["--max-failures", "1"], 1),
            (["--max-failures", "20%"], 0), (["--max-failures", "19.9%"], 1), (["--max-failures", "0"], 1),
        ]
        for (arguments, status) in expectations {
            let result = try worker("w", ["prefetch"] + arguments + [list])
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(" 2 failed; "), result.stderr)
            XCTAssertEqual(result.stderr.contains("within --max-failures"), status == 0, result.stderr)
            XCTAssertEqual(lines(result.stderr).filter { $0.contains("HTTP 404") }.count, 2, "each failure is reported: \(result.stderr)")
        }
    }

    func testABudgetThatIsNoCountOrPercentageIsAUsageError() throws {
        let list = try listWithTwoFailures()
        for value in ["abc", "-1", "101%", "5%%", "%", ""] {
            let result = try imgfetch(["prefetch", "--max-failures", value, list])
            XCTAssertEqual(result.status, 2, "\(value): \(result.stderr)")
        }
        XCTAssertEqual(try originRequests(), 0)
    }
}
