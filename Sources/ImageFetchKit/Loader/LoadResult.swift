import FoundationEssentials

/// An image the loader has in hand: its bytes (or the cache file holding them) and what its header says.
public struct LoadedImage: Sendable {
    /// The absolute path of the disk cache file holding the image, with the format's extension;
    /// `nil` with `noDiskCache`. A path, not a `URL`: building and reading back a file URL cost a
    /// cache hit a tenth of a millisecond.
    public var filePath: String?
    /// The image bytes when the loader holds them in memory (always for `noDiskCache` and network loads).
    public var data: Data?
    public var format: ImageFormat
    /// Pixels, as the header reports them (after EXIF orientation for JPEG).
    public var width: Int
    public var height: Int
    /// Frame count (1 for still images) when this process probed the bytes (a network load);
    /// nil for a cache hit, whose index does not record it.
    public var frames: Int?
    /// Size of the encoded image, in bytes.
    public var byteCount: Int
    /// Where this load found the image; for a variant made now, where its original came from.
    public var cacheType: CacheType
    /// The transform's normal form when this is a variant (`TransformSpec.description`); nil for an original.
    public var variant: String?
    /// Whether this load made the variant (false when it was cached, or for an original).
    public var transformed: Bool
    /// The HTTP response that brought the image (or, for a variant made now, its original) in
    /// this load; nil for a hit. For the manifest (`--json`).
    public var response: ResponseFacts?
    /// The original's size, for a variant made now; nil otherwise.
    public var originalSize: (width: Int, height: Int)?
    /// The original's encoded bytes, for a variant made now; nil otherwise. With `cacheType`
    /// `network`, these are the bytes that crossed the network.
    public var originalByteCount: Int?
    /// What validating the bytes found, when this load validated them (a network load): a
    /// variant made of them does not validate them again.
    var validatedInfo: ImageInfo?

    public init(
        filePath: String?, data: Data?, format: ImageFormat, width: Int, height: Int, frames: Int?,
        byteCount: Int, cacheType: CacheType, variant: String? = nil, transformed: Bool = false
    ) {
        self.filePath = filePath
        self.data = data
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.byteCount = byteCount
        self.cacheType = cacheType
        self.variant = variant
        self.transformed = transformed
    }

    /// The image bytes, from memory or read from the cache file.
    public func contents() throws -> Data {
        if let data { return data }
        guard let filePath else { return Data() }
        return try Data(contentsOf: URL(fileURLWithPath: filePath), options: .mappedIfSafe)
    }
}

/// The outcome of loading one URL: the image or the error, and how long it took.
public struct LoadResult: Sendable {
    /// The image, or why there is none.
    ///
    /// Not a `Result<LoadedImage, LoaderError>`: the first use of `Result` with an error type makes
    /// the Swift runtime check that type's `Error` conformance by scanning every conformance record
    /// of the binary, and every cache hit would pay it (see `ImageLoader`).
    public enum Outcome: Sendable {
        case loaded(LoadedImage)
        case failed(LoaderError)
    }

    /// The URL as the caller gave it.
    public var url: String
    public var outcome: Outcome
    /// Wall time from the start of this load to its completion, in seconds.
    public var elapsed: Double

    public init(url: String, outcome: Outcome, elapsed: Double) {
        self.url = url
        self.outcome = outcome
        self.elapsed = elapsed
    }

    public var image: LoadedImage? {
        if case .loaded(let image) = outcome { return image }
        return nil
    }

    public var error: LoaderError? {
        if case .failed(let error) = outcome { return error }
        return nil
    }
}

extension LoadResult.Outcome {
    /// This outcome as a request that shared another request's load reports it: an image from
    /// `memory`, made by the other request.
    var shared: LoadResult.Outcome {
        guard case .loaded(var image) = self else { return self }
        image.cacheType = .memory
        image.transformed = false
        return .loaded(image)
    }
}

/// Bytes received so far by one transfer, and the total when the server announced it.
public struct LoadProgress: Sendable, Equatable {
    public var receivedBytes: Int64
    public var expectedBytes: Int64?
    /// Set when the transfer will be tried again after a transient failure.
    public var retry: RetryNotice?

    public init(receivedBytes: Int64, expectedBytes: Int64?, retry: RetryNotice? = nil) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        self.retry = retry
    }
}
