import CImageCodecs
import FoundationEssentials

/// The one file that calls giflib: `DGifOpen` reading from memory through a callback, then
/// `DGifSlurp`, which decodes every frame (so a broken later frame is caught) and de-interlaces.
enum GifLib {
    /// The first frame painted on a transparent `width` × `height` canvas (the logical screen).
    static func decodeFirstFrameRGBA(_ data: Data, width: Int, height: Int) throws(DecodeError) -> [UInt8] {
        try CodecLibraries.load(for: .gif)
        var failure: DecodeError?
        let pixels = PixelBuffer.make(byteCount: width * height * 4) { canvas in
            failure = slurp(data) { gif throws(DecodeError) in
                let frame = try firstFrame(of: gif)
                paint(frame.desc, raster: frame.raster, palette: frame.palette, transparent: frame.transparent,
                      on: canvas, width: width, height: height)
            }
            if failure != nil { canvas.initialize(repeating: 0) }
        }
        if let failure { throw failure }
        return pixels
    }

    /// Decodes every frame, and turns the first frame's rows to RGBA through one reused row, so
    /// that no canvas the size of the image is ever allocated.
    static func verifyDecoding(_ data: Data) throws(DecodeError) {
        try CodecLibraries.load(for: .gif)
        let failure = slurp(data) { gif throws(DecodeError) in
            let frame = try firstFrame(of: gif)
            let width = Int(frame.desc.Width)
            var row = [UInt32](repeating: 0, count: width)
            row.withUnsafeMutableBufferPointer { row in
                for y in 0..<Int(frame.desc.Height) {
                    let source = frame.raster + y * width
                    for x in 0..<width { row[x] = frame.palette[Int(source[x])] }
                }
            }
        }
        if let failure { throw failure }
    }

    /// Opens `data` with giflib, decodes every frame (`DGifSlurp`), and hands the file to `body`.
    private static func slurp(
        _ data: Data, _ body: (UnsafeMutablePointer<GifFileType>) throws(DecodeError) -> Void
    ) -> DecodeError? {
        let data = withoutEmptyExtensions(data)
        return data.withUnsafeBytes { source in
            var reader = MemoryReader(base: source.baseAddress, count: source.count, offset: 0)
            return withUnsafeMutablePointer(to: &reader) { reader in
                var status: Int32 = 0
                guard let gif = imgfetch_DGifOpen(reader, readFromMemory, &status) else { return error(status) }
                defer { imgfetch_DGifCloseFile(gif, &status) }
                guard imgfetch_DGifSlurp(gif) == GIF_OK else { return error(gif.pointee.Error) }
                do throws(DecodeError) {
                    try body(gif)
                    return nil
                } catch {
                    return error
                }
            }
        }
    }

    /// `data` without its extensions of no data sub-blocks (an empty comment, as Pillow's tests
    /// have): giflib 5.2's DGifSlurp reads the byte after such an extension's terminator as a
    /// further sub-block's length and fails on a valid file. They carry nothing, so dropping
    /// them changes no pixel; `data` itself when there are none, as in nearly every GIF.
    private static func withoutEmptyExtensions(_ data: Data) -> Data {
        guard let offsets = try? GIFBlocks(data).emptyExtensionOffsets, !offsets.isEmpty else { return data }
        var kept = Data(capacity: data.count)
        var from = data.startIndex
        for offset in offsets {
            kept.append(data[from..<(data.startIndex + offset)])
            from = data.startIndex + offset + 3
        }
        kept.append(data[from...])
        return kept
    }

    private struct Frame {
        var desc: GifImageDesc
        var raster: UnsafeMutablePointer<GifByteType>
        /// RGBA bytes in memory order per colour index; the transparent index is transparent black.
        var palette: [UInt32]
        var transparent: Int
    }

    private static func firstFrame(of gif: UnsafeMutablePointer<GifFileType>) throws(DecodeError) -> Frame {
        guard gif.pointee.ImageCount > 0, let frame = gif.pointee.SavedImages else {
            throw .corrupt(.gif, reason: "it has no image in it")
        }
        var control = GraphicsControlBlock()
        let transparent = imgfetch_DGifSavedExtensionToGCB(gif, 0, &control) == GIF_OK ? Int(control.TransparentColor) : -1
        guard let colors = frame.pointee.ImageDesc.ColorMap ?? gif.pointee.SColorMap, let raster = frame.pointee.RasterBits else {
            throw .corrupt(.gif, reason: "the first image has no colour table")
        }
        return Frame(desc: frame.pointee.ImageDesc, raster: raster, palette: palette(colors.pointee, transparent: transparent), transparent: transparent)
    }

    /// The 256 RGBA pixels (as 32-bit words in memory order) of a colour table: the transparent
    /// index and indices past the table's end are transparent black.
    static func palette(_ colors: ColorMapObject, transparent: Int) -> [UInt32] {
        var palette = [UInt32](repeating: 0, count: 256)
        for index in 0..<Int(min(colors.ColorCount, 256)) where index != transparent {
            let c = colors.Colors[index]
            palette[index] = (UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16 | 0xFF00_0000).littleEndian
        }
        return palette
    }

    /// Copies the frame's colour-mapped raster into the canvas, clipped to the logical screen.
    /// What the frame leaves uncovered (outside it, or its transparent index) is transparent black.
    private static func paint(
        _ desc: GifImageDesc, raster: UnsafeMutablePointer<GifByteType>, palette: [UInt32], transparent: Int,
        on canvas: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        let left = Int(desc.Left), top = Int(desc.Top), frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
        let columns = max(0, min(frameWidth, width - left))
        let rows = max(0, min(frameHeight, height - top))
        // Most first frames fill the screen opaquely: then every pixel is written exactly once.
        let fillsCanvas = left == 0 && top == 0 && columns == width && rows == height && transparent < 0
        if !fillsCanvas { canvas.initialize(repeating: 0) }
        palette.withUnsafeBufferPointer { palette in
            canvas.withMemoryRebound(to: UInt32.self) { out in
                guard let base = out.baseAddress else { return }
                for row in 0..<rows {
                    let source = raster + row * frameWidth
                    let target = base + (top + row) * width + left
                    if transparent < 0 {
                        for column in 0..<columns { target[column] = palette[Int(source[column])] }
                    } else {
                        for column in 0..<columns where Int(source[column]) != transparent {
                            target[column] = palette[Int(source[column])]
                        }
                    }
                }
            }
        }
    }

    /// Where giflib's read callback takes bytes from: the bytes at `base`, `count` of them, the
    /// next at `offset`. Pointed to by the file's `UserData`, so it must not move while giflib reads.
    struct MemoryReader {
        var base: UnsafeRawPointer?
        var count: Int
        var offset: Int
    }

    /// giflib's InputFunc: copies up to `length` bytes from the MemoryReader in UserData.
    static let readFromMemory: InputFunc = { gif, buffer, length in
        guard let gif, let buffer, let reader = gif.pointee.UserData?.assumingMemoryBound(to: MemoryReader.self),
              let base = reader.pointee.base else { return 0 }
        let n = max(0, min(Int(length), reader.pointee.count - reader.pointee.offset))
        buffer.update(from: (base + reader.pointee.offset).assumingMemoryBound(to: UInt8.self), count: n)
        reader.pointee.offset += n
        return Int32(n)
    }

    /// The error giflib's `code` stands for: a read past the end is truncation.
    static func error(_ code: Int32) -> DecodeError {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON { return .truncated(.gif) }
        let message = imgfetch_GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .corrupt(.gif, reason: message.trimming(while: { $0 == "." || $0 == " " }).lowercased())
    }
}
