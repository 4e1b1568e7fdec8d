import Glibc
import XCTest
@testable import ImageFetchKit

/// The causes a user must act on are said in words that tell what happened.
final class DiskCacheErrorTests: XCTestCase {
    func testFullDiskQuotaAndIOErrorsSayWhatHappened() {
        XCTAssertTrue(errnoDescription(ENOSPC).hasPrefix("the disk is full (No space left on device); free some space"))
        XCTAssertTrue(errnoDescription(EDQUOT).hasPrefix("the disk quota is exceeded (Disk quota exceeded)"))
        XCTAssertEqual(errnoDescription(EIO), "an I/O error (Input/output error): the disk or filesystem may be failing")
        XCTAssertEqual(errnoDescription(EACCES), "Permission denied")
    }

    func testAnIndexThatCannotGrowOnAFullDiskIsNotCalledDamaged() {
        let error = DiskCache.indexError(SQLiteDatabase.Failure(code: 13, message: "database or disk is full"), directory: "/c", operation: "storing")

        XCTAssertTrue(error.description.hasPrefix("Cannot write the cache file /c/index.sqlite: the disk is full"), error.description)
        XCTAssertFalse(error.description.contains("verify"), error.description)
    }
}
