#!/usr/bin/env bash
# The soak run of the contract test: test/contract/schemathesis.contract-spec.ts (both auth
# schemes, every check, all phases, seed 42) with 1000 examples per operation instead of the
# 3 of `npm run contract` / `npm test`. Hours on 2 cores: run it by hand or on a schedule,
# not in CI. Any variable may be set beforehand, e.g. a shorter soak of a few operations:
#   SCHEMATHESIS_EXAMPLES=200 \
#   SCHEMATHESIS_EXTRA_ARGS="--include-operation-id ProfileController_create" \
#   bash scripts/schemathesis-soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export SCHEMATHESIS_EXAMPLES="${SCHEMATHESIS_EXAMPLES:-1000}"
# Per auth scheme (a jest test each): 4 hours.
export SCHEMATHESIS_TIMEOUT_MS="${SCHEMATHESIS_TIMEOUT_MS:-14400000}"
# The report streams to this file while it runs (jest shows it only at the end, on failure).
export SCHEMATHESIS_LOG_FILE="${SCHEMATHESIS_LOG_FILE:-$(mktemp -d)/schemathesis-soak.log}"
echo "schemathesis report: $SCHEMATHESIS_LOG_FILE"
bash scripts/setup.sh
bash scripts/setup-schemathesis.sh
exec npx jest -c jest.contract.config.js "$@"
