#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the generated manual pages against the programs and their sources, so that they cannot
drift apart: every command the dispatcher of ccm-backend accepts and every option it parses is in
ccm-backend(1), as is every option any --help prints; every environment variable a program reads
is under ENVIRONMENT of its page; and man renders both pages without a warning.

    check_man_pages.py SOURCE_DIR MAN_DIR BACKEND [DESIGNER]
"""
import glob
import os
import re
import subprocess
import sys

failures = []


def fail(message):
    failures.append(message)


def rendered(page):
    """The page as man shows it at 80 columns, and the warnings groff gave."""
    environment = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MAN_KEEP_FORMATTING="0")
    result = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", page], capture_output=True, text=True,
                            env=environment, timeout=60, check=False)
    if result.returncode != 0:
        fail(f"man -l {page} exited {result.returncode}: {result.stderr}")
    if result.stderr.strip():
        fail(f"man -l {page} warns:\n{result.stderr}")
    # The overstrike man may use for bold and underlining even when not on a terminal.
    return re.sub(r".\x08", "", result.stdout)


def section(text, title):
    match = re.search(rf"^{title}\n(.*?)(?=^[A-Z][A-Z ]+\n|\Z)", text, re.S | re.M)
    return match[1] if match else ""


def help_texts(program, words=()):
    """The --help of the program and of every command it lists, recursively."""
    environment = dict(os.environ, LC_ALL="C", QT_QPA_PLATFORM="offscreen")
    text = subprocess.run([program, *words, "--help"], capture_output=True, text=True, env=environment,
                          timeout=60, check=True).stdout
    yield words, text
    listed = re.search(r"^Commands:\n(.*?)(?:\n\n|\Z)", text, re.S | re.M)
    for line in listed[1].split("\n") if listed else []:
        if re.match(r"  [a-z]", line):
            yield from help_texts(program, (*words, line.split()[0]))


def environment_variables(source_dirs):
    """The variables the sources read with getenv() or qEnvironmentVariable()."""
    names = set()
    for directory in source_dirs:
        for path in glob.glob(os.path.join(directory, "**", "*.cpp"), recursive=True):
            with open(path, encoding="utf-8") as file:
                text = file.read()
            names |= set(re.findall(r'(?:getenv|qEnvironmentVariable\w*|environmentValue)\("([A-Z_]+)"\)', text))
            names |= set(re.findall(r'environment\.value\(QStringLiteral\("([A-Z_]+)"\)\)', text))
    return names


def check_backend(source_dir, page, program):
    text = rendered(page)
    for words, help_text in help_texts(program):
        heading = " ".join(words)
        if words and not re.search(rf"^   {re.escape(heading)}\b", text, re.M):
            fail(f"ccm-backend(1) has no section for '{heading}'")
        for option in set(re.findall(r"(?<![\w-])--?[a-z][a-z-]*", help_text)):
            if option not in text:
                fail(f"ccm-backend(1) does not mention {option} of '{heading or 'ccm-backend'} --help'")
    sources = ""
    for path in glob.glob(os.path.join(source_dir, "backend", "app", "*.cpp")):
        with open(path, encoding="utf-8") as file:
            sources += file.read()
    for command in set(re.findall(r'command == "([a-z]+)"', sources)) - {"help"}:
        # A command, a command of a group ("fleet preview", "registration init"), or an alias
        # its help names ("Also: reg, r.", "(also: c)").
        heading = re.search(rf"^   ([a-z]+ )?{command}\b", text, re.M)
        alias = re.search(rf"\b[Aa]lso:? [^.)]*\b{command}\b", text)
        if not heading and not alias:
            fail(f"the command '{command}' that backend/app dispatches is not in ccm-backend(1)")
    for option in set(re.findall(r'"(--[a-z][a-z-]*)', sources)):
        if option not in text:
            fail(f"the option {option} that backend/app parses is not in ccm-backend(1)")
    environment = section(text, "ENVIRONMENT")
    for name in environment_variables([os.path.join(source_dir, "backend")]):
        if not re.search(rf"\b{name}\b", environment):
            fail(f"ccm-backend(1) does not list {name}, which the backend reads, under ENVIRONMENT")


def check_designer(source_dir, page, program):
    text = rendered(page)
    _, help_text = next(help_texts(program))
    for option in set(re.findall(r"(?<![\w-])--?[a-z][a-z-]*", help_text)):
        if option not in text:
            fail(f"ccm-designer(1) does not mention {option} of 'ccm-designer --help'")
    environment = section(text, "ENVIRONMENT")
    for name in environment_variables([os.path.join(source_dir, "designer")]):
        if not re.search(rf"\b{name}\b", environment):
            fail(f"ccm-designer(1) does not list {name}, which the designer reads, under ENVIRONMENT")


def main():
    source_dir, man_dir, backend = sys.argv[1:4]
    check_backend(source_dir, os.path.join(man_dir, "ccm-backend.1"), backend)
    if len(sys.argv) > 4:
        check_designer(source_dir, os.path.join(man_dir, "ccm-designer.1"), sys.argv[4])
    for message in failures:
        print("FAIL:", message)
    if failures:
        sys.exit(1)
    print("the manual pages cover every command, option and environment variable")


if __name__ == "__main__":
    main()
