import Foundation
import Synchronization

/// Debian's nginx on 127.0.0.1 for one test, as a shared cache tier: `/dav/` stores what is PUT
/// (the WebDAV module: `dav_methods PUT DELETE; create_full_put_path on;`) and serves it back.
/// Configuration, pid file, logs and stored objects all live in the test's own directory; nginx
/// runs in the foreground (`daemon off;`) as the test's child and stops with `stop()` or release.
public final class NginxServer: Sendable {
    /// `http://127.0.0.1:PORT/dav`: a remote cache URL (add a prefix after it).
    public let davURL: URL
    /// Where the objects PUT under `/dav/` land.
    public let davDirectory: URL
    /// One line per request: `METHOD URI STATUS`.
    public let accessLog: URL
    private let process: Mutex<Process?>

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The nginx binary, if installed.
    public static var binary: String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts nginx with its files under `directory`; throws `Unavailable` if nginx is not installed.
    public static func start(in directory: URL) throws -> NginxServer {
        guard let binary else { throw Unavailable(description: "nginx is not installed (scripts/deps test installs it)") }
        let prefix = directory.appendingPathComponent("nginx")
        let dav = prefix.appendingPathComponent("root/dav")
        try FileManager.default.createDirectory(at: dav, withIntermediateDirectories: true)
        // Started as root, nginx runs its workers as nobody, who must be able to write the objects.
        for folder in [dav, dav.deletingLastPathComponent()] {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        }
        let port = try LocalPort.free()
        let log = prefix.appendingPathComponent("access.log")
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 1024; }
            http {
              log_format calls '$request_method $request_uri $status';
              access_log \(log.path) calls;
              client_body_temp_path \(prefix.path)/body;
              client_max_body_size 0;
              server {
                listen 127.0.0.1:\(port);
                root \(prefix.path)/root;
                location /dav/ { dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw group:rw all:r; }
              }
            }
            """
        let file = prefix.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", prefix.path, "-c", file.path, "-e", prefix.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LocalPort.waitUntilListening(port, process: process) else {
            process.terminate()
            process.waitUntilExit()
            let errors = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw Unavailable(description: "nginx did not start: \(errors)")
        }
        return NginxServer(davURL: URL(string: "http://127.0.0.1:\(port)/dav")!, davDirectory: dav, accessLog: log, process: process)
    }

    private init(davURL: URL, davDirectory: URL, accessLog: URL, process: sending Process) {
        self.davURL = davURL
        self.davDirectory = davDirectory
        self.accessLog = accessLog
        self.process = Mutex(process)
    }

    deinit { stop() }

    /// Stops nginx and waits for it to exit. Safe to call more than once.
    public func stop() {
        guard let running = process.withLock({ value in defer { value = nil }; return value }) else { return }
        running.terminate()
        running.waitUntilExit()
    }

    /// The requests logged so far with `method` (nginx writes the line when the response is done).
    public func requests(_ method: String) throws -> [String] {
        let text = try String(contentsOf: accessLog, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix(method + " ") }.map(String.init)
    }

    /// The files stored under `/dav/`, as paths relative to it.
    public func storedObjects() -> [String] {
        let root = davDirectory.path
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }
}
