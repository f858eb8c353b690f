#!/usr/bin/env bash
# Installs schemathesis (pinned) into .tools/schemathesis, a Python venv, once (pip from PyPI).
# Needs python3 (>= 3.10) with its venv module: on Debian/Ubuntu the python3-venv package,
# installed here when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.32.5
venv=.tools/schemathesis

# shellcheck source=scripts/lib/setup-common.sh
. scripts/lib/setup-common.sh

if [ -x "$venv/bin/schemathesis" ] && [ "$("$venv/bin/schemathesis" --version 2>/dev/null | awk '{print $3}')" = "$VERSION" ]; then
  log "schemathesis $VERSION: cached ($venv)"
  exit 0
fi
if ! command -v python3 >/dev/null; then
  log "installing python3 (Debian package)"
  apt_install python3 python3-venv
fi
probe=$(mktemp -d)
if ! python3 -m venv "$probe/venv" >/dev/null 2>&1; then
  # Debian's python3 comes without ensurepip: python3-venv (or python3.X-venv) has it.
  log "installing python3-venv (Debian package)"
  minor=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  apt_install python3-venv || apt_install "python$minor-venv"
fi
rm -rf "$probe"
# A venv made elsewhere (its scripts name the python of the path it was made at: a moved or
# copied checkout) cannot be repaired in place: made again.
rm -rf "$venv"
python3 -m venv "$venv"
# pip retries a dropped connection itself (--retries); a failed install is tried again whole.
retry_download "pip install schemathesis" \
  "$venv/bin/pip" install --quiet --disable-pip-version-check --retries 10 --timeout 60 "schemathesis==$VERSION"
log "schemathesis $VERSION: installed ($venv)"
