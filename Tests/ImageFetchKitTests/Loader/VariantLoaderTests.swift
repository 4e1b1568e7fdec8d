import Foundation
import TestSupport
import Synchronization
import XCTest
@testable import ImageFetchKit

/// Variants through the loader: made once, cached under their own key, as fresh as their original.
final class VariantLoaderTests: LoaderTestCase {
    private func options(_ spec: TransformSpec) -> LoadOptions {
        var options = LoadOptions()
        options.transform = spec
        return options
    }

    func testConcurrentLoadsOfOneVariantMakeItOnceFromOneTransfer() async throws {
        let loader = makeLoader()
        let u = url("/baseline.jpg", ["hold": "gate"])
        let options = options(TransformSpec(width: 32))
        let results = await withTaskGroup(of: LoadResult.self) { group in
            for _ in 0..<8 { group.addTask { await loader.load(u, options: options) } }
            try? await server.waitForHeldRequests(1, to: "/baseline.jpg")
            try? server.release("gate")
            return await group.reduce(into: []) { $0.append($1) }
        }
        let images = results.compactMap(\.image)
        XCTAssertEqual(images.count, 8)
        XCTAssertEqual(images.filter(\.transformed).count, 1)
        XCTAssertEqual(Set(images.map { [$0.width, $0.height] }), [[32, 24]])
        XCTAssertEqual(try server.requestCount(for: "/baseline.jpg"), 1)
    }

    func testAVariantExpiresWithItsOriginalAndIsMadeAgainFromTheRevalidatedOne() async throws {
        let u = url("/gray.jpg", ["etag": "1"])
        let spec = TransformSpec(width: 16)
        let first = try await makeLoader().load(u, options: options(spec)).requireImage()
        XCTAssertTrue(first.transformed)
        let variantKey = CacheKey(u).variant(spec)
        let original = try XCTUnwrap(try cache().entry(for: CacheKey(u)))
        let variant = try XCTUnwrap(try cache().entry(for: variantKey))
        XCTAssertEqual(variant.expiresAt, original.expiresAt)
        XCTAssertEqual(variant.fetchedAt, original.fetchedAt)

        clock.advance(by: 3 * 24 * 3600)
        let hit = try await makeLoader().load(u, options: options(spec)).requireImage()
        XCTAssertFalse(hit.transformed)
        XCTAssertEqual(hit.cacheType, .disk)

        clock.advance(by: 5 * 24 * 3600)
        let remade = try await makeLoader().load(u, options: options(spec)).requireImage()
        XCTAssertTrue(remade.transformed, "past its original's expiry the variant is made again")
        XCTAssertEqual(remade.cacheType, .disk, "from the original a 304 renewed")
        XCTAssertEqual(try server.requestCount(for: "/gray.jpg"), 2)
        XCTAssertEqual(try XCTUnwrap(try cache().entry(for: variantKey)).fetchedAt, clock.date())
    }

    func testNewBytesForTheOriginalDropItsVariants() async throws {
        let u = url("/gray.jpg")
        let spec = TransformSpec(width: 16)
        _ = try await makeLoader().load(u, options: options(spec)).requireImage()
        var refresh = LoadOptions()
        refresh.refresh = true
        _ = try await makeLoader().load(u, options: refresh).requireImage()
        XCTAssertNil(try cache().entry(for: CacheKey(u).variant(spec)), "a 200 replaced the original: its variants went")
        XCTAssertNotNil(try cache().entry(for: CacheKey(u)))
    }

    func testNoDiskCacheMakesTheVariantInMemoryOnly() async throws {
        var noDisk = options(TransformSpec(width: 20, format: .png))
        noDisk.noDiskCache = true
        let image = try await makeLoader().load(url("/baseline.jpg"), options: noDisk).requireImage()
        XCTAssertNil(image.filePath)
        XCTAssertEqual(image.format, .png)
        let data = try XCTUnwrap(image.data)
        XCTAssertEqual(try DecoderRegistry.standard.probe(data).width, 20)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheDirectory + "/index.sqlite"))
    }

    func testAVariantHitIsAnsweredFromItsStampWithoutTheIndex() async throws {
        let u = url("/baseline.jpg")
        let spec = TransformSpec(width: 8, height: 8, fit: .cover)
        _ = try await makeLoader().load(u, options: options(spec)).requireImage()
        let loader = makeLoader()
        let hit = try XCTUnwrap(loader.loadFromCaches(u, options: options(spec))).requireImage()
        XCTAssertEqual(hit.cacheType, .disk)
        XCTAssertEqual(hit.variant, "8x8 cover")
        XCTAssertEqual([hit.width, hit.height], [8, 8])
        XCTAssertFalse(loader.disk.hasOpened, "the stamp answered")
    }

    func testATransformFailureSaysWhyAndLeavesTheURLOffTheFailedList() async throws {
        // WebP cannot be wider than 16383 pixels.
        let u = url("/baseline.jpg")
        let result = await makeLoader().load(u, options: options(TransformSpec(width: 17000, height: 1, fit: .fill, upscale: true, format: .webp)))
        guard case .transform(_, let error)? = result.error else { return XCTFail("expected a transform error, got \(String(describing: result.error))") }
        XCTAssertEqual(result.error?.category, .notAnImage)
        XCTAssertTrue(error.description.contains("WebP"), error.description)
        XCTAssertNil(try cache().failure(for: u))
        XCTAssertNotNil(try cache().entry(for: CacheKey(u)), "the original stays cached")
    }

    func testAnOutputOverThePixelLimitIsRefusedBeforeAnyPixelIsMade() async throws {
        // 64×48 enlarged to 20000 wide would be 20000×15000: 300 million pixels.
        let result = await makeLoader().load(url("/baseline.jpg"), options: options(TransformSpec(width: 20000, upscale: true)))
        guard case .transform(_, .outputTooLarge(let width, let height, let limit))? = result.error else {
            return XCTFail("expected outputTooLarge, got \(String(describing: result.error))")
        }
        XCTAssertEqual([width, height, limit], [20000, 15000, 100_000_000])
        XCTAssertEqual(result.error?.category, .notAnImage)
    }
}

/// The JPEG decoder, counting the header probes and structure checks it is asked for.
private final class CountingJPEGDecoder: TransformDecoding {
    let inner = JPEGDecoder()
    let probes = Mutex(0)
    let structureChecks = Mutex(0)

    var format: ImageFormat { inner.format }

    func probe(_ data: Data) throws(DecodeError) -> ImageInfo {
        probes.withLock { $0 += 1 }
        return try inner.probe(data)
    }

    func validateStructure(of data: Data, info: ImageInfo) throws(DecodeError) {
        structureChecks.withLock { $0 += 1 }
        try inner.validateStructure(of: data, info: info)
    }

    func decode(_ data: Data, info: ImageInfo) throws(DecodeError) -> DecodedImage {
        try inner.decode(data, info: info)
    }

    func decodeForTransform(_ data: Data, info: ImageInfo, minimumStoredSize: (width: Int, height: Int)?) throws(DecodeError) -> SourceImage {
        try inner.decodeForTransform(data, info: info, minimumStoredSize: minimumStoredSize)
    }
}

final class VariantValidationTests: LoaderTestCase {
    /// A `--resize` miss validates the original once, as it arrives; making the variant trusts
    /// that. A variant of an original from the disk cache validates it once before decoding.
    func testAResizeMissValidatesItsOriginalOnce() async throws {
        let counting = CountingJPEGDecoder()
        func makeCountingLoader() -> ImageLoader {
            ImageLoader(configuration: LoaderConfiguration(
                cacheDirectory: cacheDirectory, diskCache: .testing(clock: clock),
                decoders: DecoderRegistry.standard.registering(counting)))
        }
        var options = LoadOptions()
        options.transform = TransformSpec(width: 32)
        let made = try await makeCountingLoader().load(url("/baseline.jpg"), options: options).requireImage()
        XCTAssertTrue(made.transformed)
        XCTAssertEqual(counting.probes.withLock { $0 }, 1, "the original's header was probed more than once")
        XCTAssertEqual(counting.structureChecks.withLock { $0 }, 1, "the original's structure was checked more than once")

        options.transform = TransformSpec(width: 16)
        let fromDisk = try await makeCountingLoader().load(url("/baseline.jpg"), options: options).requireImage()
        XCTAssertEqual(fromDisk.cacheType, .disk)
        XCTAssertTrue(fromDisk.transformed)
        XCTAssertEqual(counting.probes.withLock { $0 }, 2)
        XCTAssertEqual(counting.structureChecks.withLock { $0 }, 2)
    }
}
