extension LoaderError {
    /// The HTTP status the server answered, when that was the failure; nil for any other.
    public var httpStatus: Int? {
        guard case .download(_, let error) = self, case .http(let status) = error.kind else { return nil }
        return status
    }
}
