#!/usr/bin/env bash
# Outbox lag benchmark (docs: kopek-server/docs/events.md, "Benchmark"). For each relay mode (polling, cdc):
# starts a PostgreSQL with logical WAL and an embedded KRaft broker from kopek-server's test classpath, a fresh
# Kopek jar pointed at both, drives pm_ok payments at RATE/s for RUN_SECONDS, and prints one RESULT line with the
# lag from the event's transaction to the broker's acknowledgement (p50, p99) and events/s.
# Everything listens on 127.0.0.1.
#
# Knobs (environment): RATE=100 RUN_SECONDS=20 MODES="polling cdc" SKIP_BUILD=1 (reuse */target)
#   KEEP_LOGS=/some/dir to keep Kopek's and the environment's logs
#   BENCH_LOCK=/tmp/kopek-mvn.lock is held while measuring so concurrent builds do not skew it (BENCH_LOCK= not to).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/benchmarks/lib.sh"
LOCK="${BENCH_LOCK-/tmp/kopek-mvn.lock}"
RATE="${RATE:-100}"
# Not SECONDS: bash keeps its own SECONDS (seconds since the shell started), so a run without SECONDS in its environment lasted 0 s.
SECONDS_TO_RUN="${RUN_SECONDS:-20}"
MODES="${MODES:-polling cdc}"
API_KEY="sk_test_outbox_bench_0123456789abcdef"
# The actuator (Prometheus) is admin-only: Kopek is started with this token and the driver scrapes with it.
export KOPEK_ADMIN_TOKEN="${KOPEK_ADMIN_TOKEN:-bench-admin-token-0123456789}"
WORK="$(mktemp -d /tmp/kopek-outbox-bench.XXXXXX)"
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n "${KEEP_LOGS:-}" ]]; then mkdir -p "$KEEP_LOGS"; cp "$WORK"/*.log "$KEEP_LOGS"/ 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

cd "$ROOT"
if [[ -z "${SKIP_BUILD:-}" ]]; then
  locked ./mvnw -q -DskipTests -pl kopek-demo,benchmarks -am package
  locked ./mvnw -q -pl kopek-server -am dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$ROOT/kopek-server/target/test-classpath.txt"
fi
TEST_CP="kopek-server/target/test-classes:kopek-server/target/classes:$(cat kopek-server/target/test-classpath.txt)"
# The demo build: Kopek with its simulator in-process, as the PSP of this measurement.
JAR="$(ls kopek-demo/target/kopek-demo-*.jar | grep -v original | head -1)"

measure() {
  local mode="$1" env="$WORK/$1.env" port
  port="$(free_port)"
  mkfifo "$WORK/$mode.stdin"
  java -cp "$TEST_CP" dev.kopek.outbox.BenchEnvironment "$env" < "$WORK/$mode.stdin" > "$WORK/$mode.env.log" 2>&1 &
  PIDS+=($!)
  exec {hold}> "$WORK/$mode.stdin"
  for _ in $(seq 1 600); do [[ -f "$env" ]] && break; sleep 0.1; done
  [[ -f "$env" ]] || { echo "bench environment did not start; see $WORK/$mode.env.log" >&2; exit 1; }
  set -a; source "$env"; set +a
  KOPEK_DB_USER=postgres KOPEK_OUTBOX_MODE="$mode" KOPEK_HTTP_PORT="$port" KOPEK_DEMO_API_KEY="$API_KEY" \
    KOPEK_ADMIN_TOKEN="$KOPEK_ADMIN_TOKEN" KOPEK_DATA_DIR="$WORK/$mode-data" java -jar "$JAR" > "$WORK/$mode.kopek.log" 2>&1 &
  local kopek=$!
  PIDS+=($kopek)
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$port/actuator/health" > /dev/null 2>&1 && break; sleep 0.1
  done
  sleep 6 # CDC: let the watchdog start the engine before the first event
  java -cp benchmarks/target/classes dev.kopek.bench.outbox.OutboxLagBenchmark --url "http://127.0.0.1:$port" \
    --api-key "$API_KEY" --rate "$RATE" --seconds "$SECONDS_TO_RUN" --mode "$mode"
  kill "$kopek"; wait "$kopek" 2>/dev/null || true
  exec {hold}>&-
}

for mode in $MODES; do
  if [[ -n "$LOCK" ]]; then
    exec {lockfd}> "$LOCK"; flock "$lockfd"
    measure "$mode"
    flock -u "$lockfd"
  else
    measure "$mode"
  fi
done
