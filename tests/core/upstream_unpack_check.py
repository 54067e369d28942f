#!/usr/bin/env python3
"""Unpacks bundles as upstream CCM's agent does (internal/util UntarGz, then FindManifestInFiles)
and prints, per archive, the manifest upstream would run, relative to the archive's root.

The rules, as upstream's Go code applies them:
- the stream is gzip, then tar;
- every member must be a regular file or a directory, else the whole archive is refused;
- a name containing ".." anywhere is refused, and so is one that would land outside the target;
- files are written in archive order; the manifest is the first file, in that order, whose base
  name is manifest.yaml.

Usage: upstream_unpack_check.py ARCHIVE...   exit status 1 when upstream would refuse one.
"""

import gzip
import os
import sys
import tarfile


def upstream_manifest(path):
    target = "/unpack-target"
    with gzip.open(path, "rb") as stream, tarfile.open(fileobj=stream, mode="r|") as archive:
        files = []
        for member in archive:
            if not (member.isreg() or member.isdir()):
                raise ValueError("only regular files and directories are supported: " + member.name)
            if ".." in member.name:
                raise ValueError("invalid tar file detected: " + member.name)
            joined = os.path.normpath(os.path.join(target, member.name))
            if not joined.startswith(target):
                raise ValueError("invalid tar file detected: " + member.name)
            if member.isreg():
                files.append(joined)
    for joined in files:
        if os.path.basename(joined) == "manifest.yaml":
            return joined[len(target) + 1:]
    raise ValueError("manifest.yaml not found")


def main(archives):
    status = 0
    for path in archives:
        try:
            print(path + ": " + upstream_manifest(path))
        except (ValueError, OSError, tarfile.TarError) as error:
            print(path + ": refused: " + str(error))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
