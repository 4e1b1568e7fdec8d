import FoundationEssentials

/// The images of loads that skipped the remote tier before it had answered any read, kept until
/// its first answer says whether it is being filled (`RemoteCacheTier.releaseDeferredUploads`),
/// held to a byte budget.
struct RemoteDeferredUploads {
    private var uploads: [RemoteUploadBacklog.Upload] = []
    private var bytes = 0

    /// Keeps `upload` if it fits within `budget` bytes with those kept; false, keeping
    /// nothing, if it does not.
    mutating func keep(_ upload: RemoteUploadBacklog.Upload, within budget: Int) -> Bool {
        guard bytes + upload.image.count <= budget else { return false }
        uploads.append(upload)
        bytes += upload.image.count
        return true
    }

    /// Every upload kept, leaving none.
    mutating func takeAll() -> [RemoteUploadBacklog.Upload] {
        defer { self = RemoteDeferredUploads() }
        return uploads
    }
}
