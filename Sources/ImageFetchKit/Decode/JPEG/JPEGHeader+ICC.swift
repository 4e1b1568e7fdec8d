import FoundationEssentials

extension JPEGHeader {
    /// What starts an APP2 segment holding part of an ICC profile: "ICC_PROFILE" and a NUL, then
    /// the part's sequence number (from 1) and the number of parts, then the part's bytes.
    static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// The embedded ICC profile: the parts of `iccSegments` joined in sequence-number order, as the
    /// ICC specification's annex B lays them out (a profile over 64 KB spans several segments).
    /// Nil when there is none, or when the parts do not make one profile: numbers missing, repeated
    /// or beyond the count, counts that disagree, or fewer bytes than a profile header. A broken
    /// profile is dropped, never an error: the pixels are still good, shown as sRGB.
    func iccProfile(in data: Data) -> [UInt8]? {
        guard !iccSegments.isEmpty else { return nil }
        let bytes = ByteReader(data)
        let headerLength = Self.iccSignature.count + 2
        var parts = [Range<Int>?](repeating: nil, count: iccSegments.count)
        for segment in iccSegments {
            guard segment.count >= headerLength,
                  let number = bytes.uint8(at: segment.lowerBound + headerLength - 2),
                  let count = bytes.uint8(at: segment.lowerBound + headerLength - 1),
                  Int(count) == iccSegments.count, (1...Int(count)).contains(Int(number)),
                  parts[Int(number) - 1] == nil
            else { return nil }
            parts[Int(number) - 1] = (segment.lowerBound + headerLength)..<segment.upperBound
        }
        var profile: [UInt8] = []
        profile.reserveCapacity(parts.reduce(0) { $0 + ($1?.count ?? 0) })
        for part in parts {
            guard let part else { return nil }
            profile += data[(data.startIndex + part.lowerBound)..<(data.startIndex + part.upperBound)]
        }
        return profile.count >= ICCProfile.headerLength ? profile : nil
    }
}
