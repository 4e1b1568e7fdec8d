import FoundationEssentials

/// Everything an `ImageLoader` is built from: where the cache lives, its limits, and the parts it
/// joins (decoder registry, data loader). The defaults are the command line's defaults.
public struct LoaderConfiguration: Sendable {
    /// The disk cache directory (absolute); opened on first use, so a run that never touches the
    /// disk cache never opens its index.
    public var cacheDirectory: String
    /// Max age, max size and durability of the disk cache.
    public var diskCache: DiskCacheConfiguration
    /// Bytes the memory cache may hold: an entry backed by a disk file counts its metadata (about
    /// 900 bytes, see `LoadedImage.memoryCost`), one held in memory only (`noDiskCache`) its bytes too.
    /// 0 keeps no memory cache at all (a run that loads each image once has no use for one).
    public var memoryCostLimit: Int
    /// Transfers running at once when `dataLoader` is the default downloader.
    public var maxConcurrentTransfers: Int
    /// Which queued transfer starts first when the default downloader is at its limit.
    public var transferOrder: DownloaderConfiguration.Order
    /// Limits per host and on the rate of the default downloader (none by default).
    public var politeness: Politeness
    /// The default downloader's cookie file (see `DownloaderConfiguration.cookieFile`); nil for none.
    public var cookieFile: String?
    /// The decoders that validate what is fetched.
    public var decoders: DecoderRegistry
    /// The network seam; `nil` creates a `Downloader` on the first network load (so a cache hit
    /// never initialises libcurl).
    public var dataLoader: (any DataLoading)?
    /// A remote cache tier shared with other machines, consulted after the disk cache and before
    /// the origin; nil for none (then nothing of it is ever set up).
    public var remoteCache: RemoteCacheConfiguration?

    /// The memory cache's limit unless one is given: 64 MiB.
    public static let defaultMemoryCostLimit = 64 * 1024 * 1024

    public init(
        cacheDirectory: String,
        diskCache: DiskCacheConfiguration = DiskCacheConfiguration(),
        memoryCostLimit: Int = LoaderConfiguration.defaultMemoryCostLimit,
        maxConcurrentTransfers: Int = 6,
        transferOrder: DownloaderConfiguration.Order = .fifo,
        politeness: Politeness = Politeness(),
        cookieFile: String? = nil,
        decoders: DecoderRegistry = .standard,
        dataLoader: (any DataLoading)? = nil,
        remoteCache: RemoteCacheConfiguration? = nil
    ) {
        self.cacheDirectory = cacheDirectory
        self.diskCache = diskCache
        self.memoryCostLimit = memoryCostLimit
        self.maxConcurrentTransfers = maxConcurrentTransfers
        self.transferOrder = transferOrder
        self.politeness = politeness
        self.cookieFile = cookieFile
        self.decoders = decoders
        self.dataLoader = dataLoader
        self.remoteCache = remoteCache
    }
}
