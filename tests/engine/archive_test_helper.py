#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Helpers of the archive tests.

serve ROOT LOG USER PASSWORD HEADER VALUE
    Serves the files of ROOT on 127.0.0.1 at a free port, which it prints on the first line.
    Every request is appended to LOG as "<path> <Authorization header>". Paths:
      /<file>             the file, 404 when there is none
      /basic/<file>       only with basic authentication USER:PASSWORD, otherwise 401
      /header/<file>      only with the request header HEADER: VALUE, otherwise 403
      /status/<code>/...  answers with that status
      /redirect/<file>    302 to /<file>

make OUTPUT KIND [ARGUMENT]
    Writes an archive whose format follows OUTPUT's extension (.tar.gz, .tgz, .tar, .zip).
    KIND is one of: app (app/bin/app, app/README, app/lib/current -> ../README), dotdot,
    absolute (ARGUMENT is the absolute entry name), symlink (a link to ../outside and a file
    through it), absolute-symlink, hardlink (to ../outside), device, and these hostile ones:
      chain             x/b -> .., x/a1 -> b/.., x/a2 -> a1/.. (each inside on its own)
      chain-dirs        d1/d2/up -> ../.., e -> d1/d2/up/..
      absolute-chain    in -> ARGUMENT (the extraction directory), up -> in/..
      link-to-link      d/l1 -> .., l2 -> d/l1/..
      later-name        s/b -> m/../.., then s/m -> . turns s/b into a way out
      loop              a -> b, b -> a
      hop               hop -> sub, then hop/f written through it
      hardlink-via-link sub/f, hop -> sub, h hard link to hop/f
      hardlink-missing  h hard link to a name the archive does not hold
      inside-chain      links through links that all stay inside (accepted)
      long-name         three good entries, then a name the filesystem refuses
      blocked           three good entries, then one/kept.txt/inner, below a name the tests
                        create as a file beforehand
      bad-crc           three good entries, then damaged.txt, and a CRC-32 that does not match
                        the data: damaged.txt's in a zip, the gzip stream's in a .tar.gz
"""

import base64
import http.server
import io
import os
import struct
import sys
import tarfile
import zipfile

APP_SCRIPT = b"#!/bin/sh\necho app\n"
README = b"read me\n"


def serve(root, log_path, user, password, header, value):
    expected_basic = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body=b"", extra=None):
            self.send_response(status)
            for key, text in (extra or {}).items():
                self.send_header(key, text)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(f"{self.path} {self.headers.get('Authorization', '')}\n")
            parts = self.path.lstrip("/").split("/")
            if parts[0] == "basic":
                if self.headers.get("Authorization") != expected_basic:
                    return self.answer(401, b"no", {"WWW-Authenticate": 'Basic realm="test"'})
                parts = parts[1:]
            elif parts[0] == "header":
                if self.headers.get(header) != value:
                    return self.answer(403, b"forbidden")
                parts = parts[1:]
            elif parts[0] == "status":
                return self.answer(int(parts[1]), b"status page " * 100)
            elif parts[0] == "redirect":
                return self.answer(302, b"", {"Location": "/" + "/".join(parts[1:])})
            path = os.path.join(root, *parts)
            if not os.path.isfile(path):
                return self.answer(404, b"not found")
            with open(path, "rb") as served:
                self.answer(200, served.read())

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


def entries(kind, argument):
    """(name, type, data or link target, mode) of the archive's entries."""
    good = [("good.txt", "file", b"good\n", 0o644)]
    if kind == "app":
        return [
            ("app/", "dir", None, 0o755),
            ("app/bin/app", "file", APP_SCRIPT, 0o755),
            ("app/README", "file", README, 0o644),
            ("app/lib/current", "symlink", "../README", 0o777),
        ]
    if kind == "dotdot":
        return good + [("../escaped.txt", "file", b"escaped\n", 0o644)]
    if kind == "absolute":
        return good + [(argument, "file", b"escaped\n", 0o644)]
    if kind == "symlink":
        return good + [("link", "symlink", "../outside", 0o777), ("link/escaped.txt", "file", b"escaped\n", 0o644)]
    if kind == "absolute-symlink":
        return good + [("link", "symlink", "/etc", 0o777)]
    if kind == "hardlink":
        return good + [("link", "hardlink", "../outside.txt", 0o644)]
    if kind == "device":
        return good + [("null", "device", None, 0o666)]
    if kind == "chain":
        return good + [("x/", "dir", None, 0o755), ("x/b", "symlink", "..", 0o777),
                       ("x/a1", "symlink", "b/..", 0o777), ("x/a2", "symlink", "a1/..", 0o777)]
    if kind == "chain-dirs":
        return good + [("d1/d2/up", "symlink", "../..", 0o777), ("e", "symlink", "d1/d2/up/..", 0o777)]
    if kind == "absolute-chain":
        return good + [("in", "symlink", argument, 0o777), ("up", "symlink", "in/..", 0o777)]
    if kind == "link-to-link":
        return good + [("d/l1", "symlink", "..", 0o777), ("l2", "symlink", "d/l1/..", 0o777)]
    if kind == "later-name":
        return good + [("s/b", "symlink", "m/../..", 0o777), ("s/m", "symlink", ".", 0o777)]
    if kind == "loop":
        return good + [("a", "symlink", "b", 0o777), ("b", "symlink", "a", 0o777)]
    if kind == "hop":
        return good + [("sub/", "dir", None, 0o755), ("hop", "symlink", "sub", 0o777),
                       ("hop/f", "file", b"through\n", 0o644)]
    if kind == "hardlink-via-link":
        return good + [("sub/f", "file", b"f\n", 0o644), ("hop", "symlink", "sub", 0o777),
                       ("h", "hardlink", "hop/f", 0o644)]
    if kind == "hardlink-missing":
        return good + [("h", "hardlink", "missing.txt", 0o644)]
    if kind == "inside-chain":
        return good + [("x/", "dir", None, 0o755), ("x/b", "symlink", "..", 0o777), ("x/a1", "symlink", "b", 0o777),
                       ("y", "symlink", "x/a1/good.txt", 0o777), ("z", "hardlink", "good.txt", 0o644)]
    if kind in ("long-name", "blocked", "bad-crc"):
        items = good + [("one/", "dir", None, 0o755), ("one/two.txt", "file", b"two\n", 0o644),
                        ("three", "symlink", "one/two.txt", 0o777)]
        if kind == "long-name":
            return items + [("one/" + "n" * 300, "file", b"long\n", 0o644)]
        if kind == "bad-crc":
            return items + [("damaged.txt", "file", b"damaged in transit\n" * 50, 0o644)]
        return items + [("one/kept.txt/inner", "file", b"inner\n", 0o644)]
    raise SystemExit(f"unknown kind {kind}")


def make_tar(output, items, mode):
    with tarfile.open(output, mode, format=tarfile.GNU_FORMAT) as archive:
        for name, kind, data, permissions in items:
            info = tarfile.TarInfo(name)
            info.mode = permissions
            info.mtime = 1700000000
            if kind == "file":
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
                continue
            info.type = {"dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE,
                         "device": tarfile.CHRTYPE}[kind]
            if kind in ("symlink", "hardlink"):
                info.linkname = data
            if kind == "device":
                info.devmajor, info.devminor = 1, 3
            archive.addfile(info)


def make_zip(output, items):
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, kind, data, permissions in items:
            info = zipfile.ZipInfo(name, (2023, 11, 14, 22, 13, 20))
            info.create_system = 3
            if kind == "file":
                info.external_attr = (0o100000 | permissions) << 16
                archive.writestr(info, data)
            elif kind == "dir":
                info.external_attr = (0o040000 | permissions) << 16 | 0x10
                archive.writestr(info, b"")
            elif kind == "symlink":
                info.external_attr = (0o120000 | permissions) << 16
                archive.writestr(info, data.encode())
            else:
                raise SystemExit(f"zip archives cannot hold a {kind}")


def damage_last_crc(output):
    """Flips the CRC-32 recorded for the last entry, in its local header and the central directory."""
    with zipfile.ZipFile(output) as archive:
        recorded = struct.pack("<I", archive.infolist()[-1].CRC)
    with open(output, "rb") as damaged:
        data = damaged.read()
    if data.count(recorded) != 2:
        raise SystemExit("the CRC-32 to damage is not recorded exactly twice")
    with open(output, "wb") as damaged:
        damaged.write(data.replace(recorded, bytes(b ^ 0xFF for b in recorded)))


def damage_gzip_crc(output):
    """Flips the CRC-32 in the gzip trailer (the 8 bytes after the deflate data: CRC-32, length)."""
    with open(output, "rb") as damaged:
        data = bytearray(damaged.read())
    for i in range(len(data) - 8, len(data) - 4):
        data[i] ^= 0xFF
    with open(output, "wb") as damaged:
        damaged.write(bytes(data))


def make(output, kind, argument=None):
    items = entries(kind, argument)
    if output.endswith(".zip"):
        make_zip(output, items)
        if kind == "bad-crc":
            damage_last_crc(output)
    elif output.endswith(".tar.gz") or output.endswith(".tgz"):
        make_tar(output, items, "w:gz")
        if kind == "bad-crc":
            damage_gzip_crc(output)
    elif kind == "bad-crc":
        raise SystemExit("bad-crc archives are zip or gzip archives")
    else:
        make_tar(output, items, "w")


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:8])
    else:
        make(*sys.argv[2:])
