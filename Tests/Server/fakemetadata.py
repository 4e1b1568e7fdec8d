#!/usr/bin/env python3
"""A stand-in for the AWS credential endpoints a worker's S3 credentials may come from, for
imgfetch's credential chain tests: EC2's instance metadata service as IMDSv2 answers (a session
token from a PUT, then the role's name and its credentials, each GET refused without the token)
and the container credentials endpoint (GET /container/creds, refused without the Authorization
value). Both answer the key pair they are given, so a test can have moto check the signatures.

Usage: fakemetadata.py KEY SECRET SESSION_TOKEN [--role NAME] [--authorization VALUE]
Prints "PORT <n>" once it listens on an ephemeral port, then serves until stdin closes.
GET /_stats answers JSON counts: token_puts, role_lists, credential_gets, container_gets, refused.
"""
import http.server
import json
import secrets
import socketserver
import sys
import threading

ROLES = "/latest/meta-data/iam/security-credentials/"


class State:
    def __init__(self, key, secret, token, role, authorization):
        self.credentials = {
            "Code": "Success", "Type": "AWS-HMAC", "LastUpdated": "2026-01-01T00:00:00Z",
            "AccessKeyId": key, "SecretAccessKey": secret, "Token": token, "Expiration": "2099-01-01T00:00:00Z",
        }
        self.role = role
        self.authorization = authorization
        self.sessions = set()
        self.lock = threading.Lock()
        self.counts = {"token_puts": 0, "role_lists": 0, "credential_gets": 0, "container_gets": 0, "refused": 0}

    def count(self, name):
        with self.lock:
            self.counts[name] += 1


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="text/plain"):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def refuse(self, status):
        self.state.count("refused")
        self.reply(status, "refused\n")

    def do_PUT(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.path != "/latest/api/token" or not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
            return self.refuse(400)
        session = secrets.token_hex(16)
        with self.state.lock:
            self.state.sessions.add(session)
        self.state.count("token_puts")
        self.reply(200, session)

    def do_GET(self):
        state = self.state
        if self.path == "/_stats":
            with state.lock:
                return self.reply(200, json.dumps(state.counts), "application/json")
        if self.path == "/container/creds":
            if state.authorization is not None and self.headers.get("Authorization") != state.authorization:
                return self.refuse(403)
            state.count("container_gets")
            credentials = {k: state.credentials[k] for k in ("AccessKeyId", "SecretAccessKey", "Token", "Expiration")}
            return self.reply(200, json.dumps(credentials), "application/json")
        if not self.path.startswith(ROLES):
            return self.reply(404, "not found\n")
        with state.lock:
            known = self.headers.get("X-aws-ec2-metadata-token") in state.sessions
        if not known:
            return self.refuse(401)
        if self.path == ROLES:
            state.count("role_lists")
            return self.reply(200, state.role)
        if self.path == ROLES + state.role:
            state.count("credential_gets")
            return self.reply(200, json.dumps(state.credentials), "application/json")
        self.reply(404, "not found\n")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    key, secret, token = args[:3]
    options = {"--role": "imgfetch-worker", "--authorization": None}
    rest = args[3:]
    while rest:
        name = rest.pop(0)
        if name not in options or not rest:
            sys.exit(f"fakemetadata.py: unknown option {name}")
        options[name] = rest.pop(0)
    Handler.state = State(key, secret, token, options["--role"], options["--authorization"])
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
