#!/usr/bin/env bash
# Builds Kopek and the load driver, then measures POST /v1/payments twice against a fresh Kopek each time:
#   fast mode:    zero PSP latency, FAST_PAYMENTS payments at FAST_CONCURRENCY, DB pool FAST_POOL
#   latency mode: the simulator answers after LATENCY_MS, LATENCY_PAYMENTS payments all at once, DB pool 5
# and prints the two RESULT lines. Everything listens on 127.0.0.1. See benchmarks/README.md.
#
# Knobs (environment): FAST_PAYMENTS=20000 FAST_CONCURRENCY=64 FAST_WARMUP=40000 FAST_POOL=10
#   LATENCY_MS=3000 LATENCY_PAYMENTS=200 LATENCY_CONCURRENCY=200 LATENCY_POOL=5
#   SKIP_BUILD=1 to reuse the jars in */target; KOPEK_JAR=/path/to/kopek-demo.jar to measure another build
#   (the demo build: its simulator runs in-process; e.g. one of a clean `git archive HEAD`; implies no build of it); BENCH_LOCK=/tmp/kopek-mvn.lock is also held while measuring
#   so that concurrent Maven builds on a small machine do not skew the figures (BENCH_LOCK= to not wait).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/benchmarks/lib.sh"
LOCK="${BENCH_LOCK-/tmp/kopek-mvn.lock}"
API_KEY="sk_test_bench_0123456789abcdef"
FAST_PAYMENTS="${FAST_PAYMENTS:-20000}"
FAST_CONCURRENCY="${FAST_CONCURRENCY:-64}"
FAST_WARMUP="${FAST_WARMUP:-40000}"
FAST_POOL="${FAST_POOL:-10}"
LATENCY_MS="${LATENCY_MS:-3000}"
LATENCY_PAYMENTS="${LATENCY_PAYMENTS:-200}"
LATENCY_CONCURRENCY="${LATENCY_CONCURRENCY:-200}"
LATENCY_POOL="${LATENCY_POOL:-5}"
# The rate limiter's statement stays on the measured path, with limits far above the benchmark's load.
for limit in WRITES READS GLOBAL_WRITES GLOBAL_READS; do
    export "KOPEK_RATE_LIMIT_${limit}_PER_SECOND=${BENCH_RATE_LIMIT:-1000000}"
    export "KOPEK_RATE_LIMIT_${limit}_BURST=${BENCH_RATE_LIMIT:-1000000}"
done

KOPEK_JAR="${KOPEK_JAR:-}"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    modules="kopek-demo,benchmarks"
    [[ -z "$KOPEK_JAR" ]] || modules="benchmarks"
    echo "building $modules (waiting for /tmp/kopek-mvn.lock if another build runs)..."
    (cd "$ROOT" && flock /tmp/kopek-mvn.lock ./mvnw -q -o -DskipTests -pl "$modules" -am package)
fi
KOPEK_JAR="${KOPEK_JAR:-$ROOT/kopek-demo/target/kopek-demo-0.1.0-SNAPSHOT.jar}"

WORK="$(mktemp -d /tmp/kopek-bench.XXXXXX)"
# Private copies: a rebuild in the working tree must not swap a jar under a running JVM.
cp "$KOPEK_JAR" "$WORK/kopek-server.jar"
cp "$ROOT/benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar" "$WORK/benchmarks.jar"

KOPEK_PID=""
DATA_DIR=""

stop_kopek() {
    [[ -n "$KOPEK_PID" ]] || return 0
    kill -TERM "$KOPEK_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$KOPEK_PID" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$KOPEK_PID" 2>/dev/null; then
        echo "kopek $KOPEK_PID did not stop in 30 s, killing it" >&2
        kill -KILL "$KOPEK_PID" 2>/dev/null || true
    fi
    wait "$KOPEK_PID" 2>/dev/null || true
    # The embedded PostgreSQL normally goes down with Kopek; if not, stop exactly that postmaster.
    local pidfile="$DATA_DIR/postgres/postmaster.pid"
    if [[ -f "$pidfile" ]]; then
        local pg; pg="$(head -1 "$pidfile")"
        if [[ -n "$pg" ]] && kill -0 "$pg" 2>/dev/null; then kill -INT "$pg" 2>/dev/null || true; sleep 2; fi
    fi
    rm -rf "$DATA_DIR"
    KOPEK_PID=""
}
trap 'stop_kopek' EXIT

# start_kopek NAME POOL: a fresh data dir, the known demo key, free ports; waits for /actuator/health.
start_kopek() {
    local name="$1" pool="$2"
    HTTP_PORT="$(free_port)"
    SIM_PORT="$(free_port)"
    while [[ "$SIM_PORT" == "$HTTP_PORT" ]]; do SIM_PORT="$(free_port)"; done
    DATA_DIR="$WORK/data-$name"
    LOG="$WORK/kopek-$name.log"
    KOPEK_HTTP_PORT="$HTTP_PORT" KOPEK_DATA_DIR="$DATA_DIR" KOPEK_DEMO_API_KEY="$API_KEY" \
        KOPEK_SIMULATOR_PORT="$SIM_PORT" KOPEK_DB_POOL_SIZE="$pool" \
        java -jar "$WORK/kopek-server.jar" >"$LOG" 2>&1 &
    KOPEK_PID=$!
    echo "kopek ($name) pid $KOPEK_PID on 127.0.0.1:$HTTP_PORT, simulator :$SIM_PORT, pool $pool, log $LOG"
    for _ in $(seq 1 360); do
        if ! kill -0 "$KOPEK_PID" 2>/dev/null; then
            echo "kopek exited during startup; last log lines:" >&2; tail -30 "$LOG" >&2; exit 1
        fi
        if [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/actuator/health")" == 200 ]]; then
            return 0
        fi
        sleep 0.5
    done
    echo "kopek not healthy after 180 s; last log lines:" >&2; tail -30 "$LOG" >&2; exit 1
}

# drive OUTFILE ARGS...: runs the driver (holding the lock), keeps its output, never aborts the script.
drive() {
    local out="$1"; shift
    set +e
    locked java -jar "$WORK/benchmarks.jar" --url "http://127.0.0.1:$HTTP_PORT" --api-key "$API_KEY" \
        --simulator-url "http://127.0.0.1:$SIM_PORT" "$@" | tee "$out"
    local rc=${PIPESTATUS[0]}
    set -e
    [[ $rc == 0 ]] || echo "driver exited with $rc (2 = money movements do not match the captured answers)" >&2
}

kopek_problems() {
    local n; n="$(grep -cE '^[0-9TZ:.-]+ +(ERROR|WARN) ' "$LOG" || true)"
    echo "kopek log: $n ERROR/WARN lines"
    grep -E '^[0-9TZ:.-]+ +(ERROR|WARN) ' "$LOG" | head -10 || true
}

echo
echo "== fast mode: zero latency, $FAST_PAYMENTS payments, concurrency $FAST_CONCURRENCY, pool $FAST_POOL"
start_kopek fast "$FAST_POOL"
drive "$WORK/fast.txt" --payments "$FAST_PAYMENTS" --concurrency "$FAST_CONCURRENCY" --warmup "$FAST_WARMUP" \
    --latency-ms 0
kopek_problems
stop_kopek

echo
echo "== latency mode: $LATENCY_MS ms at the PSP, $LATENCY_PAYMENTS payments, concurrency $LATENCY_CONCURRENCY, pool $LATENCY_POOL"
start_kopek latency "$LATENCY_POOL"
drive "$WORK/latency.txt" --payments "$LATENCY_PAYMENTS" --concurrency "$LATENCY_CONCURRENCY" \
    --latency-ms "$LATENCY_MS" --warmup 2000
kopek_problems
retries="$(grep -c 'retrying once with the same key' "$LOG" || true)"
echo "kopek log: $retries PSP charge retries after a transport failure (timeouts at kopek.psp.read-timeout)"
stop_kopek

echo
echo "== results (logs and driver output in $WORK)"
echo "fast:    $(grep '^RESULT' "$WORK/fast.txt" || echo 'RESULT missing')"
echo "latency: $(grep '^RESULT' "$WORK/latency.txt" || echo 'RESULT missing')"
