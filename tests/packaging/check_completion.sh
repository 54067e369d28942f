#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Completes ccm-backend command lines with the bash completion the package installs, against the
# built program, as bash would on Tab.
#   check_completion.sh COMPLETION_FILE CCM_BACKEND
set -euo pipefail
completion=$1
program=$2
# shellcheck source=/dev/null
source "$completion"

failures=0
# expect WORD... -- CANDIDATE...: completing after WORD... offers every CANDIDATE (none: offers nothing).
expect()
{
    local -a words=()
    while [[ $1 != -- ]]; do words+=("$1"); shift; done
    shift
    COMP_WORDS=("$program" "${words[@]}")
    COMP_CWORD=${#words[@]}
    _ccm_backend
    local offered=" ${COMPREPLY[*]} " candidate
    if [[ $# -eq 0 && ${#COMPREPLY[@]} -ne 0 ]]; then
        echo "FAIL: ccm-backend ${words[*]}<Tab> offers '${COMPREPLY[*]}', expected nothing"
        failures=$((failures + 1))
    fi
    for candidate in "$@"; do
        if [[ $offered != *" $candidate "* ]]; then
            echo "FAIL: ccm-backend ${words[*]}<Tab> offers '${COMPREPLY[*]}', not $candidate"
            failures=$((failures + 1))
        fi
    done
}

expect "" -- validate render bundle facts apply serve publish agent fleet client
expect ap -- apply
expect apply --no -- --noop
expect apply --d -- --data --detailed-exitcodes
expect apply site.yaml --show -- --show-diff
expect fleet "" -- preview status keygen
expect fleet preview --ti -- --timeout
expect serve --u -- --user
expect cap -- capture
expect capture --no -- --no-verify
expect validate "" --
expect apply site.yaml "" --

if [[ $failures -ne 0 ]]; then
    exit 1
fi
echo "bash completion offers the commands and options of ccm-backend --help"
