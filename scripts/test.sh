#!/usr/bin/env bash
# npm test: the set-up, then Jest (every project) with the static checks beside it.
# The static checks (type check, ESLint with Prettier and the cycle check, the deploy lint, the
# OpenAPI lint; after the build of the api and the worker that two e2e suites start) take
# about 90 s of CPU. Run before Jest they added 2-3 minutes; Jest leaves about a fifth of 2 cores
# idle (its files wait on their workers, the engine, schemathesis), so beside it, at a lower CPU
# priority (nice 10), they use that idle time and hardly slow it; on a machine kept busy they
# run after Jest's end, as they ran before it. Their output follows Jest's; the run fails when
# either fails. Arguments go to Jest (`npm test -- test/quotas`).
set -uo pipefail
cd "$(dirname "$0")/.."

WITH_BROWSER=1 bash scripts/setup.sh || exit 1
bash scripts/setup-schemathesis.sh || exit 1

static_log=$(mktemp)
(
  nice -n 10 bash -c '
    set -e
    # test/admin and test/docs/readme-runnable run the built apps: built here first (their
    # build-if-stale waits for this one), not inside a Jest worker.
    node scripts/build-if-stale.js
    npm run -s typecheck
    npm run -s lint
    npm run -s lint:deploy
    npm run -s openapi:lint
  '
) >"$static_log" 2>&1 &
static_pid=$!
echo "[test] static checks (build, typecheck, lint, lint:deploy, openapi:lint) run beside Jest; their output follows Jest's"

# The full run (no arguments) runs the e2e files in groups, loading the service once a group
# instead of once a file (test/harness/suite-groups.js); a run of chosen files runs them alone.
if [ "$#" -eq 0 ]; then
  export JEST_SUITE_GROUPS=1
fi

# The JSON results give the compact list of failures printed last (scripts/test-failures.js);
# JEST_RESULTS_FILE keeps them (scripts/suite-seconds.js reads the files' times from them).
jest_results=${JEST_RESULTS_FILE:-$(mktemp)}
npx --no-install jest --json --outputFile="$jest_results" "$@"
jest_status=$?

wait "$static_pid"
static_status=$?
echo "[test] static checks:"
cat "$static_log"
rm -f "$static_log"
if [ "$static_status" -ne 0 ]; then
  echo "[test] static checks failed (status $static_status)" >&2
fi
if [ "$jest_status" -ne 0 ]; then
  node scripts/test-failures.js "$jest_results"
  echo "[test] Jest failed (status $jest_status)" >&2
fi
[ -n "${JEST_RESULTS_FILE:-}" ] || rm -f "$jest_results"
[ "$jest_status" -eq 0 ] && [ "$static_status" -eq 0 ]
