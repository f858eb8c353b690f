#!/usr/bin/env bash
# The soak run of the contract test: test/contract/*.contract-spec.ts (both auth
# schemes, every check, all phases, seed 42) with 1000 examples per operation instead of the
# 3 of `npm run contract` / `npm test`. Hours on 2 cores: run it by hand or on a schedule,
# not in CI. Any variable may be set beforehand, e.g. a shorter soak of a few operations:
#   SCHEMATHESIS_EXAMPLES=200 \
#   SCHEMATHESIS_EXTRA_ARGS="--include-operation-id ProfileController_create" \
#   bash scripts/schemathesis-soak.sh
#
# SOAK_SHARD=k/n runs the k-th of n shards of the operations (every n-th operation id of
# openapi.json, from the k-th on): the whole soak takes hours per scheme on 2 cores, so it can
# be run a shard at a time (docs/operations.md, "Contract testing", keeps each shard's result).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n "${SOAK_SHARD:-}" ]]; then
  SHARD_ARGS="$(node -e '
    const [k, n] = process.argv[1].split("/").map(Number);
    if (!(k >= 1 && n >= k)) throw new Error(`SOAK_SHARD must be k/n with 1 <= k <= n, not ${process.argv[1]}`);
    const doc = require("./openapi.json");
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item))
      .map((op) => op.operationId).filter(Boolean).sort();
    console.log(ids.filter((_, i) => i % n === k - 1).map((id) => `--include-operation-id ${id}`).join(" "));
  ' "$SOAK_SHARD")"
  export SCHEMATHESIS_EXTRA_ARGS="${SCHEMATHESIS_EXTRA_ARGS:-} $SHARD_ARGS"
  echo "shard $SOAK_SHARD: $(wc -w <<<"$SHARD_ARGS" | awk '{print $1 / 2}') operations"
fi
export SCHEMATHESIS_EXAMPLES="${SCHEMATHESIS_EXAMPLES:-1000}"
# Per auth scheme (a jest test each): 4 hours.
export SCHEMATHESIS_TIMEOUT_MS="${SCHEMATHESIS_TIMEOUT_MS:-14400000}"
# The report streams to this file while it runs (jest shows it only at the end, on failure).
export SCHEMATHESIS_LOG_FILE="${SCHEMATHESIS_LOG_FILE:-$(mktemp -d)/schemathesis-soak.log}"
echo "schemathesis report: $SCHEMATHESIS_LOG_FILE"
bash scripts/setup.sh
bash scripts/setup-schemathesis.sh
exec npx jest -c jest.contract.config.js "$@"
