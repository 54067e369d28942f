#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the Debian packages `make package` built, one aspect per run:

    check_deb.py lintian  BUILD_DIR VERSION   lintian finds no error and no warning
    check_deb.py contents BUILD_DIR VERSION   every file the install rules list is in a package
    check_deb.py run      BUILD_DIR VERSION   the unpacked programs work from where they are installed

Each unpacks the packages with dpkg-deb -x into a temporary root; nothing is installed.
"""
import glob
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

PACKAGES = {"backend": "ccm-backend", "designer": "ccm-designer"}


def run(command, **options):
    options.setdefault("timeout", 300)
    return subprocess.run(command, capture_output=True, text=True, check=False, **options)


def require(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)


def package_files(build_dir, version):
    architecture = run(["dpkg", "--print-architecture"]).stdout.strip()
    files = {}
    for component, name in PACKAGES.items():
        path = os.path.join(build_dir, f"{name}_{version}_{architecture}.deb")
        require(os.path.isfile(path), f"{path} is missing; run 'make package' first")
        files[component] = path
    return files


def unpack(debs, root):
    for deb in debs.values():
        result = run(["dpkg-deb", "-x", deb, root])
        require(result.returncode == 0, f"dpkg-deb -x {deb}: {result.stderr}")


def check_lintian(debs):
    result = run(["lintian", "--fail-on", "error,warning", "--display-info", "--tag-display-limit", "0",
                  *debs.values()], timeout=900)
    print(result.stdout, end="")
    require(result.returncode == 0, f"lintian exited {result.returncode}: {result.stderr}")
    require(not re.search(r"^[EW]: ", result.stdout, re.M), "lintian reports errors or warnings")


def check_contents(build_dir, debs):
    """Installs each component with CMake into a scratch prefix, then looks for every file it wrote
    in the unpacked packages, under /usr as the packages install them."""
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as prefix:
        unpack(debs, root)
        for component, name in PACKAGES.items():
            result = run(["cmake", "--install", build_dir, "--component", component, "--prefix", prefix])
            require(result.returncode == 0, f"cmake --install --component {component}: {result.stderr}")
            manifest = os.path.join(build_dir, f"install_manifest_{component}.txt")
            with open(manifest, encoding="utf-8") as file:
                installed = [line.strip() for line in file if line.strip()]
            require(installed, f"the install rules of {component} list no file")
            for path in installed:
                relative = os.path.relpath(path, prefix)
                require(os.path.exists(os.path.join(root, "usr", relative)),
                        f"{name} lacks /usr/{relative}, which the install rules list")
            print(f"{name}: all {len(installed)} files the install rules list are in the package")
        backend_files = run(["dpkg-deb", "-c", debs["backend"]]).stdout
        require("libQt6" not in run(["dpkg-deb", "-f", debs["backend"], "Depends"]).stdout,
                "ccm-backend depends on Qt")
        require("./usr/bin/ccm-designer" not in backend_files, "ccm-backend holds the designer")
        depends = run(["dpkg-deb", "-f", debs["designer"], "Depends"]).stdout
        require(re.search(r"\bccm-backend \(= ", depends), f"ccm-designer does not depend on its ccm-backend: {depends}")


def wait_for(predicate, seconds, process=None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        if process is not None and process.poll() is not None:
            return predicate()
        time.sleep(0.05)
    return predicate()


def check_designer_starts(root, scratch):
    """The designer, started offscreen from the unpacked tree, starts the ccm-backend installed
    beside it as the user backend: its socket appears."""
    runtime = os.path.join(scratch, "runtime")
    os.makedirs(runtime, mode=0o700)
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=runtime, HOME=scratch,
                       XDG_CONFIG_HOME=os.path.join(scratch, "config"), LC_ALL="C")
    environment.pop("CCM_BACKEND", None)
    socket = os.path.join(runtime, "ccm-designer", "backend.sock")
    example = os.path.join(root, "usr/share/doc/ccm-backend/examples/webserver.yaml")
    designer = subprocess.Popen([os.path.join(root, "usr/bin/ccm-designer"), example], env=environment,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        started = wait_for(lambda: os.path.exists(socket), 60, designer)
        require(designer.poll() is None, f"the designer exited {designer.returncode}")
        require(started, f"the designer did not start its backend: no {socket}")
    finally:
        os.killpg(designer.pid, signal.SIGTERM)
        output = designer.communicate(timeout=60)[0].decode(errors="replace")
    print("the designer started offscreen and its installed backend listens at", socket)
    return output


def check_run(debs, version):
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as scratch:
        unpack(debs, root)
        backend = os.path.join(root, "usr/bin/ccm-backend")
        result = run([backend, "--version"])
        require(result.returncode == 0 and result.stdout.strip() == f"ccm-backend {version}",
                f"ccm-backend --version said '{result.stdout.strip()}' ({result.returncode})")
        print(result.stdout.strip())

        examples = sorted(glob.glob(os.path.join(root, "usr/share/doc/ccm-backend/examples/*.yaml")))
        require(examples, "no example manifests in /usr/share/doc/ccm-backend/examples")
        result = run([backend, "validate", *examples])
        require(result.returncode == 0, f"the installed examples do not validate:\n{result.stdout}{result.stderr}")
        print(f"the {len(examples)} installed examples are valid")

        for page in ("ccm-backend", "ccm-designer"):
            path = os.path.join(root, f"usr/share/man/man1/{page}.1.gz")
            result = run(["man", "--warnings", "-l", path], env=dict(os.environ, MANWIDTH="80"))
            require(result.returncode == 0 and not result.stderr.strip() and f"{page.upper()}(1)" in result.stdout,
                    f"man -l {path}: {result.stderr}")

        designer = os.path.join(root, "usr/bin/ccm-designer")
        german = {key: value for key, value in os.environ.items() if key not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
        german.update(QT_QPA_PLATFORM="offscreen", LANG="de_DE.UTF-8")
        result = run([designer, "--help"], env=german)
        require(result.returncode == 0 and "Werkzeug zum Erstellen von CCM-Manifesten" in result.stdout,
                f"ccm-designer --help under LANG=de_DE.UTF-8 is not German:\n{result.stdout}{result.stderr}")
        print("ccm-designer speaks German under LANG=de_DE.UTF-8, from",
              "/usr/share/ccm-designer/translations/ccm-designer_de.qm")
        check_designer_starts(root, scratch)


def main():
    aspect, build_dir, version = sys.argv[1:4]
    debs = package_files(build_dir, version)
    if aspect == "lintian":
        check_lintian(debs)
    elif aspect == "contents":
        check_contents(build_dir, debs)
    elif aspect == "run":
        check_run(debs, version)
    else:
        sys.exit(f"unknown aspect {aspect}")


if __name__ == "__main__":
    main()
