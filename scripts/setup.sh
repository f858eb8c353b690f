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

# shellcheck source=scripts/lib/setup-common.sh
. scripts/lib/setup-common.sh

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
    # go build downloads the modules from the Go module proxy on a cold cache.
    retry_download "go build of the embedded engine" \
      bash -c 'cd tools/ferretdb && go build -trimpath -o ../../"$1" .' _ "$bin"
    echo "$want" > "$stamp"
    log "embedded engine: built ($bin)"
  fi
fi

if [ -z "${REDIS_URL:-}" ]; then
  if command -v redis-server >/dev/null; then
    log "redis-server: $(command -v redis-server)"
  else
    log "installing redis-server (Debian package)"
    apt_install redis-server
    log "redis-server: installed"
  fi
fi

if [ "${WITH_BROWSER:-}" = 1 ]; then
  if command -v chromium >/dev/null; then
    log "chromium: $(command -v chromium)"
  else
    log "installing chromium (Debian package, for the browser tests)"
    apt_install chromium
    log "chromium: installed"
  fi
fi
