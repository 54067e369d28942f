#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs ccm-backend's maintainer scripts through install, upgrade, removal and purge, with and
# without systemd running, and checks the commands they call. The system tools are stand-ins that
# record their arguments, and /run is a private tmpfs (a mount namespace), so nothing on this
# machine changes. Needs root for the namespace; skips (exit 77) without it.
#   check_maintainer_scripts.sh SCRIPTS_DIR
set -euo pipefail
scripts=$1

if [[ $(id -u) -ne 0 ]] || ! unshare --mount true 2>/dev/null; then
    echo "SKIP: a mount namespace needs root"
    exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
for tool in systemd-sysusers systemctl deb-systemd-helper deb-systemd-invoke groupdel; do
    printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n' "$tool" "$work" > "$work/bin/$tool"
done
# Two groups: ccm-apply without members, ccm-designer with one an administrator added.
cat > "$work/bin/getent" <<'EOF'
#!/bin/sh
case $2 in
    ccm-apply) echo "ccm-apply:x:998:" ;;
    ccm-designer) echo "ccm-designer:x:999:alice" ;;
    *) exit 2 ;;
esac
EOF
chmod +x "$work"/bin/*

# run SYSTEMD ACTION...: runs each "script argument..." in order, with /run/systemd/system present
# when SYSTEMD is yes; prints the commands they called.
run()
{
    local systemd=$1
    shift
    : > "$work/calls"
    unshare --mount sh -ec '
        mount -t tmpfs none /run
        if [ "$1" = yes ]; then mkdir -p /run/systemd/system; fi
        scripts=$2 bin=$3
        shift 3
        for step in "$@"; do
            # shellcheck disable=SC2086
            set -- $step
            script=$1
            shift
            PATH="$bin:$PATH" sh -e "$scripts/$script" "$@"
        done' run "$systemd" "$scripts" "$work/bin" "$@"
    cat "$work/calls"
}

failures=0
expect()
{
    local what=$1 actual=$2 expected=$3
    if [[ $actual != "$expected" ]]; then
        printf 'FAIL: %s called\n%s\nexpected\n%s\n' "$what" "$actual" "$expected"
        failures=$((failures + 1))
    fi
}

expect "an install under systemd" "$(run yes "postinst configure")" "systemd-sysusers ccm-designer.conf
systemctl --system daemon-reload
deb-systemd-helper --quiet was-enabled ccm-backend.socket
deb-systemd-helper enable ccm-backend.socket
deb-systemd-helper update-state ccm-agent.service
deb-systemd-invoke start ccm-backend.socket"

expect "an upgrade under systemd" "$(run yes "postinst configure 0.0.9")" "systemd-sysusers ccm-designer.conf
systemctl --system daemon-reload
deb-systemd-helper --quiet was-enabled ccm-backend.socket
deb-systemd-helper enable ccm-backend.socket
deb-systemd-helper update-state ccm-agent.service
deb-systemd-invoke start ccm-backend.socket
deb-systemd-invoke try-restart ccm-backend.service ccm-agent.service"

expect "a removal under systemd" "$(run yes "prerm remove" "postrm remove")" "deb-systemd-invoke stop ccm-backend.socket ccm-backend.service ccm-agent.service
systemctl --system daemon-reload"

expect "a purge" "$(run yes "postrm purge")" "deb-systemd-helper purge ccm-backend.socket ccm-agent.service
groupdel ccm-apply"

expect "an install, upgrade and removal without systemd" \
    "$(run no "postinst configure" "postinst configure 0.0.9" "prerm remove" "postrm remove")" ""

if [[ $failures -ne 0 ]]; then
    exit 1
fi
echo "the maintainer scripts act under systemd only, and purge removes what they created"
