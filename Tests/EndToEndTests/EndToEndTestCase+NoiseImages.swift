import Foundation
import XCTest

extension EndToEndTestCase {
    /// Writes into the served folder a PNG of random pixels (which do not compress: `side`² × 3
    /// bytes and a little more) for each name, the `n`th from seed `firstSeed + n`. For tests
    /// that need bodies larger than the fixtures.
    func serveNoisePNGs(_ names: [String], side: Int, firstSeed: Int = 0) throws {
        let script = """
            import random, struct, sys, zlib
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            side, first = int(sys.argv[1]), int(sys.argv[2])
            for seed, path in enumerate(sys.argv[3:], start=first):
                rows = random.Random(seed)
                raw = b"".join(b"\\0" + rows.randbytes(side * 3) for _ in range(side))
                header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
                open(path, "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
            """
        let paths = names.map { Shell.quote(served.appendingPathComponent($0).path) }.joined(separator: " ")
        let made = try Shell.run("python3 -c \(Shell.quote(script)) \(side) \(firstSeed) \(paths)")
        XCTAssertEqual(made.status, 0, made.stderr)
    }
}
