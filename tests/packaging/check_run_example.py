#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`make run` without a display (scripts/run-example): it succeeds, and what it says about the
output agrees with the output. Templates left in the rendered manifest are those of deferred
fields only, and the noop preview shows them filled in."""
import os
import re
import subprocess
import sys

source_dir, build_dir = sys.argv[1], sys.argv[2]
environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
ran = subprocess.run([os.path.join(source_dir, "scripts", "run-example"), build_dir], env=environment,
                     capture_output=True, text=True, timeout=240)
failures = []
if ran.returncode != 0:
    failures.append(f"exit status {ran.returncode}, stderr:\n{ran.stderr}")
lines = ran.stdout.splitlines()


def section(start_marker, end_marker):
    """The lines after the one containing start_marker, up to the one containing end_marker."""
    starts = [i for i, line in enumerate(lines) if start_marker in line]
    if not starts:
        failures.append(f"no line containing {start_marker!r}")
        return []
    rest = lines[starts[0] + 1:]
    ends = [i for i, line in enumerate(rest) if end_marker in line]
    return rest[:ends[0]] if ends else rest


# The render: a template may remain only inside a deferred field (file content or source, exec
# command, cwd, environment, creates, onlyif, unless), which the text says keep their templates.
deferred = ("content", "source", "command", "cwd", "environment", "creates", "onlyif", "unless")
if not any("Deferred fields" in line for line in lines):
    failures.append("the text before the render does not say which fields keep their templates")
rendered = section("applied, as the noop preview below shows", "What applying")
if not rendered or rendered[0] != "data:":
    failures.append("the render does not follow its explanation")
keys = []  # (indent, key) of the keys enclosing the current line, outermost first
for number, line in enumerate(rendered, 1):
    indent = len(line) - len(line.lstrip(" "))
    key = re.match(r"\s*(?:- )?([A-Za-z_]+):", line)
    if key:
        while keys and keys[-1][0] >= indent:
            keys.pop()
        keys.append((indent, key.group(1)))
        field = key.group(1)
    else:
        enclosing = [name for key_indent, name in keys if key_indent < indent]
        field = enclosing[-1] if enclosing else None
    if "{{" in line and field not in deferred:
        failures.append(f"render line {number}: a template outside a deferred field ({field}): {line.strip()}")

# The noop preview fills the deferred templates in.
preview = section("What applying resources/examples/static-site.yaml would change", "\0")
added = [line for line in preview if line.startswith("+") and not line.startswith("+++")]
if not any("Served by" in line for line in added):
    failures.append("the noop preview shows no diff of the site's index.html")
for line in added:
    if "{{" in line or "}}" in line:
        failures.append(f"the noop preview shows an unfilled template: {line}")

if failures:
    print("scripts/run-example:\n  " + "\n  ".join(failures))
    print("--- its output:\n" + ran.stdout)
    sys.exit(1)
print(f"scripts/run-example: {len(lines)} lines; the render and the preview agree with the text")
