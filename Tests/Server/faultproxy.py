#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 proxy for imgfetch's remote-tier tests: it stands in front of a real
tier (nginx WebDAV) on 127.0.0.1 and passes every request on, except the ones its faults answer.

Usage: faultproxy.py UPSTREAM_PORT [--fail-every N] [--fail-status S] [--put-status S] [--delay-ms MS]
                     [--put-delay-ms MS]
Prints "PORT <n>" once it listens on an ephemeral port, then serves until stdin closes (so it never
outlives the test process that started it).

  --fail-every N   every Nth request (counted over all methods) is answered S (default 500)
                   instead of being passed on
  --put-status S   every PUT is answered S (e.g. 403) instead of being passed on
  --delay-ms MS    every request waits MS ms before it is passed on (a slow tier)
  --put-delay-ms MS  every PUT waits MS ms instead (a tier slow to read, quick to write)

GET /_proxy/stats (never passed on, never counted) answers JSON: requests per method, requests
passed on per method, faults answered per status, and the most requests of each method that were
in the proxy at once.
"""
import http.client
import http.server
import json
import socketserver
import sys
import threading
import time


class Proxy:
    def __init__(self, upstream_port, fail_every, fail_status, put_status, delay_ms, put_delay_ms):
        self.upstream_port = upstream_port
        self.fail_every = fail_every
        self.fail_status = fail_status
        self.put_status = put_status
        self.delay = delay_ms / 1000.0
        self.put_delay = self.delay if put_delay_ms is None else put_delay_ms / 1000.0
        self.lock = threading.Lock()
        self.count = 0
        self.requests = {}
        self.passed = {}
        self.faults = {}
        self.in_flight = {}
        self.most_in_flight = {}

    def enter(self, method):
        with self.lock:
            now = self.in_flight.get(method, 0) + 1
            self.in_flight[method] = now
            self.most_in_flight[method] = max(now, self.most_in_flight.get(method, 0))

    def leave(self, method):
        with self.lock:
            self.in_flight[method] -= 1

    def fault_for(self, method):
        """The status to answer this request with, or None to pass it on; counts it."""
        with self.lock:
            self.count += 1
            self.requests[method] = self.requests.get(method, 0) + 1
            status = None
            if method == "PUT" and self.put_status:
                status = self.put_status
            elif self.fail_every and self.count % self.fail_every == 0:
                status = self.fail_status
            if status is None:
                self.passed[method] = self.passed.get(method, 0) + 1
            else:
                self.faults[str(status)] = self.faults.get(str(status), 0) + 1
            return status

    def stats(self):
        with self.lock:
            return {"requests": dict(self.requests), "passed": dict(self.passed), "faults": dict(self.faults),
                    "most_in_flight": dict(self.most_in_flight)}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    proxy = None

    def log_message(self, *args):
        pass

    def upstream(self):
        if getattr(self, "_upstream", None) is None:
            self._upstream = http.client.HTTPConnection("127.0.0.1", self.proxy.upstream_port, timeout=30)
        return self._upstream

    def reply(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if length and len(body) < length:
            # The client left mid-body (an upload cancelled at the end of a run): passing on what
            # came, with its length recomputed, would store a truncated object on the tier.
            self.close_connection = True
            return
        if self.command == "GET" and self.path == "/_proxy/stats":
            self.reply(200, json.dumps(self.proxy.stats()).encode(), [("Content-Type", "application/json")])
            return
        self.proxy.enter(self.command)
        try:
            self.pass_on(body)
        finally:
            self.proxy.leave(self.command)

    def pass_on(self, body):
        status = self.proxy.fault_for(self.command)
        delay = self.proxy.put_delay if self.command == "PUT" else self.proxy.delay
        if delay:
            time.sleep(delay)
        if status is not None:
            self.reply(status, b"injected fault\n", [("Content-Type", "text/plain")])
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive", "content-length")}
        for attempt in range(2):
            try:
                connection = self.upstream()
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self._upstream = None
                if attempt == 1:
                    self.reply(502, b"upstream failed\n")
                    return
        passed = [(k, v) for k, v in response.getheaders()
                  if k.lower() not in ("connection", "keep-alive", "content-length", "transfer-encoding")]
        self.reply(response.status, data, passed)

    do_GET = do_PUT = do_HEAD = do_DELETE = do_POST = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 512


def main():
    args = sys.argv[1:]
    upstream = int(args.pop(0))
    options = {"--fail-every": 0, "--fail-status": 500, "--put-status": 0, "--delay-ms": 0, "--put-delay-ms": None}
    while args:
        name = args.pop(0)
        if name not in options or not args:
            sys.exit(f"faultproxy.py: unknown option {name}")
        options[name] = int(args.pop(0))
    Handler.proxy = Proxy(upstream, options["--fail-every"], options["--fail-status"], options["--put-status"], options["--delay-ms"],
                          options["--put-delay-ms"])
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdin.read()  # until the test process closes it (or dies)
    server.shutdown()


if __name__ == "__main__":
    main()
