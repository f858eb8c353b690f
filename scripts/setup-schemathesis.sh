#!/usr/bin/env bash
# Installs schemathesis (pinned) into .tools/schemathesis, a Python venv, once.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.32.5
venv=.tools/schemathesis
if [ -x "$venv/bin/schemathesis" ] && [ "$("$venv/bin/schemathesis" --version | awk '{print $3}')" = "$VERSION" ]; then
  echo "[setup] schemathesis $VERSION: cached ($venv)" >&2
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "schemathesis==$VERSION"
echo "[setup] schemathesis $VERSION: installed ($venv)" >&2
