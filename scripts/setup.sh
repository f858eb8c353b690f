#!/usr/bin/env bash
# Idempotent, cached setup of what the service needs besides npm packages:
#   - the embedded MongoDB-compatible engine (FerretDB v1.24.2 on SQLite), built from
#     our wrapper module in tools/ferretdb into .tools/bin/ferretdb; rebuilt only when
#     the wrapper's sources change;
#   - redis-server (Debian package), installed only when missing;
#   - chromium (Debian package) for the browser tests of the preference centre
#     (test/preference-centre/, Playwright drives /usr/bin/chromium: browser downloads are
#     not available), installed only when missing and only with WITH_BROWSER=1 (`npm test`
#     sets it; `npm start` does not need a browser).
# Nothing here is needed when MONGODB_URI and REDIS_URL point at running servers.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; return 1; fi
}

# Another apt-get or dpkg (unattended-upgrades, cloud-init on a fresh machine) may hold the
# dpkg lock: apt waits up to 10 minutes for it (DPkg::Lock::Timeout, apt >= 1.9.11) instead
# of failing at once with "Could not get lock /var/lib/dpkg/lock-frontend".
APT_LOCK_WAIT_SECONDS=600
apt_get() {
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_SECONDS" "$@"
}

# `apt-get update` also takes the package lists' lock (/var/lib/apt/lists/lock), which
# DPkg::Lock::Timeout may not cover: while another apt holds it, try again for as long.
apt_get_update() {
  local waited=0 output
  while ! output=$(apt_get update -qq 2>&1); do
    if ! grep -q 'Could not get lock' <<<"$output" || [ "$waited" -ge "$APT_LOCK_WAIT_SECONDS" ]; then
      printf '%s\n' "$output" >&2
      return 1
    fi
    [ "$waited" = 0 ] && log "waiting for another apt-get to release its lock"
    sleep 5
    waited=$((waited + 5))
  done
}

if [ -z "${MONGODB_URI:-}" ]; then
  bin=.tools/bin/ferretdb
  stamp=.tools/bin/ferretdb.stamp
  want=$(cat tools/ferretdb/go.mod tools/ferretdb/go.sum tools/ferretdb/*.go | sha256sum | cut -d' ' -f1)
  if [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    log "embedded engine: cached ($bin)"
  else
    if ! command -v go >/dev/null; then
      # Debian's golang-go is too old for the FerretDB module (it needs Go >= 1.24).
      log "Go >= 1.24 is required to build the embedded engine (or set MONGODB_URI and REDIS_URL)"
      exit 1
    fi
    log "building the embedded engine (FerretDB v1.24.2); the first build takes a minute or two"
    mkdir -p .tools/bin
    (cd tools/ferretdb && go build -trimpath -o ../../"$bin" .)
    echo "$want" > "$stamp"
    log "embedded engine: built ($bin)"
  fi
fi

if [ -z "${REDIS_URL:-}" ]; then
  if command -v redis-server >/dev/null; then
    log "redis-server: $(command -v redis-server)"
  else
    log "installing redis-server (Debian package)"
    apt_get_update
    apt_get install -y -qq redis-server >/dev/null
    log "redis-server: installed"
  fi
fi

if [ "${WITH_BROWSER:-}" = 1 ]; then
  if command -v chromium >/dev/null; then
    log "chromium: $(command -v chromium)"
  else
    log "installing chromium (Debian package, for the browser tests)"
    apt_get_update
    apt_get install -y -qq chromium >/dev/null
    log "chromium: installed"
  fi
fi
