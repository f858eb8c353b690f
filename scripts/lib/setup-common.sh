# Sourced by scripts/setup.sh and scripts/setup-schemathesis.sh: logging, root, apt with its
# lock wait, and a retry for downloads (the Go module proxy, Debian's mirrors and PyPI drop a
# connection now and then; one dropped connection must not fail a fresh machine's first run).

log() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*"; return 1; fi
}

# retry_download WHAT COMMAND...: runs COMMAND up to 4 times, 5, 15 and 45 s apart.
retry_download() {
  local what=$1 attempt=1 pause=5
  shift
  until "$@"; do
    if [ "$attempt" -ge 4 ]; then
      log "$what failed $attempt times; giving up"
      return 1
    fi
    log "$what failed (attempt $attempt of 4); trying again in ${pause}s"
    sleep "$pause"
    attempt=$((attempt + 1))
    pause=$((pause * 3))
  done
}

# Another apt-get or dpkg (unattended-upgrades, cloud-init on a fresh machine) may hold the
# dpkg lock: apt waits up to 10 minutes for it (DPkg::Lock::Timeout, apt >= 1.9.11) instead
# of failing at once with "Could not get lock /var/lib/dpkg/lock-frontend". Acquire::Retries
# retries a dropped download from the mirror.
APT_LOCK_WAIT_SECONDS=600
apt_get() {
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT_SECONDS" -o Acquire::Retries=5 "$@"
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

# apt_install PACKAGE...: the package lists, then the packages, each retried when a download drops.
apt_install() {
  retry_download "apt-get update" apt_get_update &&
    retry_download "apt-get install $*" apt_get install -y -qq "$@" >/dev/null
}
