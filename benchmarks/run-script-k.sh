#!/usr/bin/env bash
# Script K: the PostgreSQL backend's instructions per payment, counted by valgrind's callgrind (issue 11).
#
# Kopek's own statements for one payment (benchmarks/script-k.sql: claim, pending insert, event; fenced update, key
# completion, event, fee and holds, journal posting, both commits with their deferred checks) run by pgbench in one
# backend of a PostgreSQL 17 (the embedded binaries) whose schema Kopek's jar migrated. Instructions are the same to
# a fraction of a percent from run to run whatever else the machine does, so a schema change is measured exactly on
# this busy shared box; the kernel's round trips and the JVM are not in it (the side-by-side run measures those).
#
#   benchmarks/run-script-k.sh [FILE.sql ...]   # the SQL files are applied after the migration (try a change
#                                               # before writing it as a migration)
#   KOPEK_JAR=...   the build whose migrations to measure (default kopek-server/target/kopek-server-*.jar)
#   PAYMENTS=100    payments counted (the difference of a run of PAYMENTS+20 and one of 20 in fresh backends,
#                   so the backend's start and first plans fall out)
#   BENCH_LOCK=/tmp/kopek-mvn.lock: held while Kopek migrates (a JVM); callgrind runs at nice 19, one process.
#   CLIENTS=10      instead of callgrind: SECONDS_RUN (20) of Script K from CLIENTS sessions at once; prints
#                   payments/s and CPU ms per payment (PostgreSQL, pgbench): costs only concurrency shows
#   SCRIPT_K_PHASE1=FILE.sql  transaction 1 of Script K replaced by FILE (another statement shape, same parameters)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/benchmarks/lib.sh"
KOPEK_JAR="${KOPEK_JAR:-$(ls "$ROOT"/kopek-server/target/kopek-server-*-SNAPSHOT.jar | head -1)}"
PAYMENTS="${PAYMENTS:-100}"
SCRIPT="$ROOT/benchmarks/script-k.sql"
LOCK="${BENCH_LOCK-/tmp/kopek-mvn.lock}"
API_KEY="sk_test_bench_0123456789abcdef"
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)"; exit 1; }
command -v pgbench >/dev/null || { echo "pgbench is missing (apt-get install postgresql-client)"; exit 1; }

WORK="$(mktemp -d /tmp/kopek-script-k.XXXXXX)"
chmod 777 "$WORK"
PG_BIN="$WORK/pg/bin" PGDATA="$WORK/pgdata" KOPEK_PID=""
cleanup() {
    stop_process "$KOPEK_PID"
    pg_stop_if_running -t 600
    [[ -n "${KEEP:-}" ]] || rm -rf "$WORK"
}
trap cleanup EXIT
PORT="$(free_port)"
psql_k() { psql -h 127.0.0.1 -p "$PORT" -U postgres -d kopek -v ON_ERROR_STOP=1 -qAt "$@"; }

pg_unpack
mkdir -p "$WORK/cg" && chmod 777 "$WORK/cg"
# Kopek's run-mode settings, autovacuum off (no worker runs into the counted backend's time).
opts="-p $PORT -c listen_addresses=127.0.0.1 -c timezone=UTC -c shared_buffers=256MB -c wal_buffers=16MB"
opts+=" -c max_wal_size=2GB -c wal_level=logical -c autovacuum=off -c fsync=on -c synchronous_commit=on"
# The cluster Kopek migrated is kept per jar (SCRIPT_K_CACHE), so that measuring another SQL file needs no JVM.
CACHE="${SCRIPT_K_CACHE:-/tmp/kopek-script-k-cache}/$(sha1sum "$KOPEK_JAR" | cut -c1-16)"
if [[ -d "$CACHE/pgdata" ]]; then
    cp -a "$CACHE/pgdata" "$PGDATA"
    pg_start "$opts"
else
    pg_initdb
    pg_start "$opts"
    psql -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE kopek"

    # Kopek migrates the schema and creates the demo merchant and its ledger accounts.
    HTTP_PORT="$(free_port)"
    migrate() {
        KOPEK_DB_URL="jdbc:postgresql://127.0.0.1:$PORT/kopek" KOPEK_DB_USER=postgres KOPEK_DB_POOL_SIZE=2 \
            KOPEK_HTTP_PORT="$HTTP_PORT" KOPEK_DEMO_API_KEY="$API_KEY" KOPEK_PSP_SIMULATOR_URL="http://127.0.0.1:9" \
            java -Xmx512m -jar "$KOPEK_JAR" >"$WORK/kopek.log" 2>&1 &
        KOPEK_PID=$!
        await_kopek 480
        kill "$KOPEK_PID"; wait "$KOPEK_PID" 2>/dev/null || true; KOPEK_PID=""
    }
    if [[ -n "$LOCK" ]]; then
        echo "waiting for $LOCK to start Kopek once (it migrates the schema)..."
        exec 9>"$LOCK"; flock 9; migrate 9>&-; flock -u 9; exec 9>&-
    else migrate; fi
    # The two accounts a capture posts to (Kopek creates them at a merchant's first posting).
    psql_k -c "INSERT INTO ledger_accounts (merchant_id, type, currency, created_at)
               SELECT NULL, 'PSP_RECEIVABLE', 'EUR', now()
               UNION ALL SELECT id, 'MERCHANT_PAYABLE', 'EUR', now() FROM merchants" >/dev/null
    pg_stop
    mkdir -p "$CACHE" && rm -rf "$CACHE/pgdata.new" && cp -a "$PGDATA" "$CACHE/pgdata.new"
    mv "$CACHE/pgdata.new" "$CACHE/pgdata"
    pg_start "$opts"
fi
MID="$(psql_k -c "SELECT id FROM merchants ORDER BY created_at LIMIT 1")"
echo "schema: migrations up to V$(psql_k -c "SELECT max(version::int) FROM flyway_schema_history") of $KOPEK_JAR"
DEBIT="$(psql_k -c "SELECT id FROM ledger_accounts WHERE type = 'PSP_RECEIVABLE' AND currency = 'EUR'")"
CREDIT="$(psql_k -c "SELECT id FROM ledger_accounts WHERE merchant_id = '$MID' AND type = 'MERCHANT_PAYABLE'")"
for f in "$@"; do echo "applying $f"; psql_k -f "$f" >/dev/null; done
if [[ -n "${SCRIPT_K_PHASE1:-}" ]]; then   # another shape of transaction 1, same parameters
    python3 - "$SCRIPT" "$SCRIPT_K_PHASE1" "$WORK/script.sql" <<'PY'
import sys
k, phase1, out = (open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3])
start, end = k.index('BEGIN;\n-- transaction 1'), k.index('BEGIN;\n-- transaction 2')
open(out, 'w').write(k[:start] + phase1 + k[end:])
PY
    SCRIPT="$WORK/script.sql"
    echo "transaction 1 from $SCRIPT_K_PHASE1"
fi
# bench N: N payments through Script K in one pgbench session; stops the script unless all N went through.
bench() {
    local out="$WORK/pgbench-$1.txt"
    pgbench -h 127.0.0.1 -p "$PORT" -U postgres -n -M prepared -D mid="$MID" -D debit="$DEBIT" -D credit="$CREDIT" \
        -f "$SCRIPT" -c 1 -t "$1" kopek >"$out" 2>&1 || { cat "$out"; exit 1; }
    grep -q "processed: $1/$1" "$out" || { cat "$out"; exit 1; }
}
bench 200   # tables and indexes not empty
psql_k -c "CHECKPOINT" >/dev/null

# CLIENTS=N: the same statements from N concurrent sessions, no valgrind — what one client cannot show (row locks
# that many sessions take on the same hot rows become MultiXacts; WAL flushes are shared). Prints payments/s and
# the CPU milliseconds per payment of PostgreSQL (postmaster, backends, exited children) and of pgbench.
if [[ -n "${CLIENTS:-}" ]]; then
    secs="${SECONDS_RUN:-20}" hz="$(getconf CLK_TCK)"
    pm="$(head -1 "$PGDATA/postmaster.pid")"
    concurrent() { # SECONDS: pgbench at CLIENTS; prints "payments cpu_postgres_ticks cpu_pgbench_ticks"
        local before after out="$WORK/pgbench-concurrent.txt"
        before="$(cpu_ticks "$pm" tree)"
        /usr/bin/time -f "%U %S" -o "$WORK/pgbench.time" pgbench -h 127.0.0.1 -p "$PORT" -U postgres -n -M prepared \
            -D mid="$MID" -D debit="$DEBIT" -D credit="$CREDIT" -f "$SCRIPT" \
            -c "$CLIENTS" -j 1 -T "$1" kopek >"$out" 2>&1 || { cat "$out"; exit 1; }
        # pgbench's backends exit with it; their CPU reaches the postmaster's cutime only once it has reaped them.
        for _ in $(seq 1 100); do
            [[ -z "$(ps --ppid "$pm" -o args= | grep 'postgres: postgres kopek')" ]] && break
            sleep 0.05
        done
        after="$(cpu_ticks "$pm" tree)"
        echo "$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$out") $((after - before))" \
            "$(awk -v hz="$hz" '{printf "%d", ($1 + $2) * hz}' "$WORK/pgbench.time")"
    }
    concurrent 5 >/dev/null   # warm: plans, caches
    read -r n pg pb <<<"$(concurrent "$secs")"
    awk -v n="$n" -v pg="$pg" -v pb="$pb" -v hz="$hz" -v s="$secs" -v c="$CLIENTS" 'BEGIN {
        printf "SCRIPT_K clients=%d payments/s=%.0f cpu_ms_per_payment postgres=%.3f pgbench=%.3f\n",
            c, n / s, 1000 * pg / hz / n, 1000 * pb / hz / n }'
    exit 0
fi
pg_stop

# The same cluster under callgrind (every process; a forked backend writes its own file when it exits).
nice -n 19 "${AS_USER[@]}" valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$WORK/cg/callgrind.%p" \
    "$PG_BIN/postgres" -D "$PGDATA" $opts -c log_connections=on >"$WORK/postgres-callgrind.log" 2>&1 &
for _ in $(seq 1 600); do pg_isready -q -h 127.0.0.1 -p "$PORT" && break; sleep 1; done
# count N: one pgbench run of N payments in a fresh backend; prints the backend's instructions.
count() {
    local seen pids
    seen="$(wc -l <"$WORK/postgres-callgrind.log")"
    bench "$1"
    # pgbench opens two sessions (one for itself, one for its client); each backend writes its file as it exits:
    # wait for both (their pids from log_connections) and take the client's, the larger.
    pids="$(tail -n +"$((seen + 1))" "$WORK/postgres-callgrind.log" \
        | sed -n 's/.*\[\([0-9]*\)\] LOG:  connection authorized.*/\1/p')"
    for _ in $(seq 1 300); do
        local ready=1
        for pid in $pids; do grep -q '^totals:' "$WORK/cg/callgrind.$pid" 2>/dev/null || ready=0; done
        [[ "$ready" == 0 ]] || break
        sleep 1
    done
    for pid in $pids; do awk '/^totals:/{print $2}' "$WORK/cg/callgrind.$pid"; done | sort -n | tail -1
}
small="$(count 20)"
large="$(count "$((PAYMENTS + 20))")"
echo "backend instructions: $small for 20 payments, $large for $((PAYMENTS + 20))"
echo "SCRIPT_K instructions_per_payment=$(( (large - small) / PAYMENTS ))"
