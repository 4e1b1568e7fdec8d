/// A group of C libraries that CImageCodecs loads together at first use (see CImageCodecs.h).
struct CodecLibrary: Sendable {
    /// The library file loaded first, as dlopen is given it: whether it is installed decides
    /// whether the default `Accept` header names the format.
    let file: String
    /// CImageCodecs' load function: loads once per process; NULL, or why it could not.
    let load: @Sendable () -> UnsafePointer<CChar>?
}
