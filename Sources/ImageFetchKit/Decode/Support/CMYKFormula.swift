/// CMYK to RGB without a colour profile: R = (255 − C)(255 − K) / 255 and likewise G from M and
/// B from Y, as libjpeg-turbo's and most viewers' plain conversion does. Used by the JPEG decoder
/// and by the transforms for CMYK images that carry no usable ICC profile.
enum CMYKFormula {
    /// Rewrites 4-byte CMYK pixels in place as RGBA, alpha 255. `inverted` samples store 255 for
    /// no ink, as Adobe-marked JPEGs (Photoshop, ImageMagick) do; plain ones store 0 for no ink.
    static func convertToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                var c = Int(p[i]), m = Int(p[i + 1]), y = Int(p[i + 2]), k = Int(p[i + 3])
                if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                p[i] = UInt8((c * k + 127) / 255)
                p[i + 1] = UInt8((m * k + 127) / 255)
                p[i + 2] = UInt8((y * k + 127) / 255)
                p[i + 3] = 255
                i += 4
            }
        }
    }
}
