#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validates manifests against upstream's CCM v1 JSON Schema with python3-jsonschema, a validator
independent of the backend's own. Usage: upstream_schema_check.py SCHEMA MANIFEST...
Prints one line per violation (FILE: /pointer: message) and exits 1 when there is any."""
import json
import sys

import jsonschema
import yaml


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        validator = jsonschema.Draft202012Validator(json.load(handle))
    invalid = False
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as handle:
            document = yaml.safe_load(handle)
        for error in validator.iter_errors(document):
            invalid = True
            pointer = "".join("/" + str(part) for part in error.absolute_path)
            print(f"{path}: {pointer}: {error.message}")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
