import CImageCodecs
import Foundation
import XCTest
@testable import ImageFetchKit

/// A CMYK JPEG's samples as stored (no conversion), through TurboJPEG as `TurboJPEG.swift` calls
/// it: the input the colour tests need until the decoders hand over `SourceImage`s.
enum CMYKJPEG {
    static func decode(_ data: Data) throws -> SourceImage {
        let header = try JPEGHeader(data)
        XCTAssertEqual(header.components, 4, "not a CMYK JPEG")
        try CodecLibraries.load(for: .jpeg)
        let handle = try XCTUnwrap(imgfetch_tjInitDecompress())
        defer { _ = imgfetch_tjDestroy(handle) }
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        let status = data.withUnsafeBytes { source in
            pixels.withUnsafeMutableBufferPointer { out in
                imgfetch_tjDecompress2(handle, source.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(source.count),
                                       out.baseAddress, Int32(header.width), 0, Int32(header.height), TJPF_CMYK.rawValue, 0)
            }
        }
        XCTAssertEqual(status, 0, String(cString: imgfetch_tjGetErrorStr2(handle)))
        return SourceImage(width: header.width, height: header.height, pixels: pixels,
                           colorModel: header.hasAdobeMarker ? .invertedCMYK : .cmyk, iccProfile: nil, orientation: header.orientation)
    }
}
