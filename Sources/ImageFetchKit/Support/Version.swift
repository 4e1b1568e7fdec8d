/// The release's version, kept in this one place: `imgfetch --version`, the default User-Agent
/// and the Debian package's version (`scripts/package` reads the line below) all come from it.
public enum ImgfetchVersion {
    public static let current = "0.1.0"
}
