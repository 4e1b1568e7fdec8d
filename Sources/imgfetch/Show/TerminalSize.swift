import Glibc

/// The size of the terminal on a file descriptor, as the kernel knows it (TIOCGWINSZ).
struct TerminalSize: Equatable {
    var columns: Int
    var rows: Int
    /// The text area in pixels; 0 when the terminal does not say (many do not).
    var pixelWidth: Int
    var pixelHeight: Int

    /// The size of the terminal on `descriptor`; nil when it is not a terminal or reports no size.
    static func of(_ descriptor: Int32) -> TerminalSize? {
        var size = winsize()
        // TIOCGWINSZ; Glibc's module does not export the constant.
        guard ioctl(descriptor, 0x5413, &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(
            columns: Int(size.ws_col), rows: Int(size.ws_row), pixelWidth: Int(size.ws_xpixel), pixelHeight: Int(size.ws_ypixel))
    }
}
