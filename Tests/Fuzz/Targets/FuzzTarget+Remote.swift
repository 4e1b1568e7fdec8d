import FoundationEssentials
@testable import ImageFetchKit

extension FuzzTarget {
    /// An object fetched from the remote tier (another machine's upload, or anything the server
    /// holds) opened for one key: the image it yields is the object's first bytes, of the length
    /// its trailer states, and sealing it again opens to the same image.
    static let envelope = FuzzTarget(name: "envelope", summary: "remote tier objects (the trailer and its checks)", seedSuffixes: []) { data in
        let key = CacheKey("https://example.test/a.png")
        guard case .image(let image) = RemoteEnvelope.open(data, for: key) else { return }
        precondition(data.starts(with: image), "an image that is not the object's first bytes")
        precondition(RemoteEnvelope.open(RemoteEnvelope.seal(image, for: key), for: key) == .image(image), "a sealed image did not open")
    }
}
