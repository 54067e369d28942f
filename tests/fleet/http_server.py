#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A small HTTP(S) server for the tests of remote sources. Serves the files of --root on
127.0.0.1, on a port the system picks, and prints "PORT <n>" once it listens.

  /files/NAME      the file, with Content-Length
  /auth/NAME       the file, for basic auth --user USER:PASSWORD only (else 401)
  /redirect/NAME   302 to /files/NAME
  /to-http/NAME    302 to http://127.0.0.1:PORT/files/NAME (a downgrade when serving https)
  /chunked/NAME    the file, chunked, without Content-Length
  /stall/NAME      half the file, then nothing until the client goes away
  /etag/NAME       the file with an ETag (its SHA-256); 304 when If-None-Match names it; each
                   answer is logged to ROOT/requests.log as "etag NAME STATUS"
  anything else    404

With --tls DIR it serves https with a certificate for 127.0.0.1 signed by a CA it creates in DIR
(DIR/ca.pem verifies it).
"""
import argparse
import base64
import hashlib
import http.server
import os
import ssl
import subprocess
import sys


def make_certificates(directory):
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    ca_key, ca_pem = os.path.join(directory, "ca.key"), os.path.join(directory, "ca.pem")
    key, csr, pem = (os.path.join(directory, n) for n in ("server.key", "server.csr", "server.pem"))
    ext = os.path.join(directory, "server.ext")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca_key, "-out", ca_pem,
            "-days", "2", "-subj", "/CN=ccm test CA")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca_pem, "-CAkey", ca_key, "-CAcreateserial", "-out", pem,
            "-days", "2", "-extfile", ext)
    return pem, key


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        sys.stderr.write(format % args + "\n")

    def content(self, name):
        path = os.path.join(self.server.root, name)
        if "/" in name or not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            return f.read()

    def send_body(self, status, body, headers=()):
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = self.path.split("/", 2)
        kind, name = (parts[1], parts[2]) if len(parts) == 3 else ("", "")
        data = self.content(name)
        if kind == "redirect":
            return self.send_body(302, b"", [("Location", "/files/" + name)])
        if kind == "to-http":
            target = "http://127.0.0.1:%d/files/%s" % (self.server.server_port, name)
            return self.send_body(302, b"", [("Location", target)])
        if data is None:
            return self.send_body(404, b"not found\n")
        if kind == "files":
            return self.send_body(200, data)
        if kind == "etag":
            tag = '"%s"' % hashlib.sha256(data).hexdigest()
            status = 304 if self.headers.get("If-None-Match") == tag else 200
            with open(os.path.join(self.server.root, "requests.log"), "a") as log:
                log.write("etag %s %d\n" % (name, status))
            if status == 304:
                self.send_response(304)
                self.send_header("ETag", tag)
                self.end_headers()
                return
            return self.send_body(200, data, [("ETag", tag)])
        if kind == "auth":
            expected = "Basic " + base64.b64encode(self.server.user.encode()).decode()
            if self.headers.get("Authorization") != expected:
                return self.send_body(401, b"", [("WWW-Authenticate", 'Basic realm="test"')])
            return self.send_body(200, data)
        if kind == "chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(data), 65536):
                chunk = data[start:start + 65536]
                self.wfile.write(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
            return
        if kind == "stall":
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            # Nothing more until the client gives up and closes.
            try:
                while self.connection.recv(1):
                    pass
            except OSError:
                pass
            self.close_connection = True
            return
        return self.send_body(404, b"not found\n")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Refused handshakes and clients that give up are what some tests are about.
        sys.stderr.write("http_server.py: %s\n" % (sys.exc_info()[1],))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--user", default="alice:secret")
    parser.add_argument("--tls")
    args = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    server.root = args.root
    server.user = args.user
    if args.tls:
        cert, key = make_certificates(args.tls)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
