#!/usr/bin/env bash
# Which of Kopek's statements use which index of the hot tables, on a filled and analyzed database (issue 25 §3):
#
#   1. PostgreSQL 17 from the embedded binaries (pg_stat_statements on), the acquirer simulator, Kopek's jar;
#   2. the closed loop (PAYMENTS at CONCURRENCY) and the mixed workload (MIXED_FLOWS: authorize, capture, refund),
#      while Kopek's own schedulers (recovery, expiry, cleanup, the projector, the audits) run as in service;
#   3. the database grown to GROWTH_PAYMENTS payments (preload-payments.sql), then ANALYZE;
#   4. with auto_explain logging the plan of every statement Kopek runs (nested ones too: the journal check at
#      commit), a short closed loop (AFTER_PAYMENTS) and mixed workload (AFTER_FLOWS) on that filled database, and
#      AFTER_SECONDS more for Kopek's schedulers (recovery, expiry, cleanup, the projector, the audits);
#   5. for every statement that names a hot table: how often it ran, the indexes its plans read and any sequential
#      scan of a hot table (pg-index-use.py over the log); for every index of the hot tables, the statements whose
#      plans read it ("0" for an index only written); the updates and HOT updates by table; the closed loop's WAL by
#      kind of record (pg_walinspect).
#
# The plans are the ones PostgreSQL ran, with the statements' own parameters, on an analyzed table of the grown size.
# A statement that runs only on a path the workloads do not take (settlement matching, the console, a person's
# decision) is not in the log: the report says which indexes no logged plan read, and those need a reader in the code.
# Not part of CI.
#
# Knobs: PAYMENTS=20000 CONCURRENCY=64 MIXED_FLOWS=2000 GROWTH_PAYMENTS=200000 POOL=10 KOPEK_JAR=... SKIP_BUILD=1
#   AFTER_PAYMENTS=2000 AFTER_FLOWS=300 AFTER_SECONDS=30
#   HOT_TABLES="payments idempotency_keys ledger_entries ledger_transactions outbox psp_calls"
#   BENCH_LOCK=/tmp/kopek-mvn.lock (held while it runs, as run-side-by-side.sh does; BENCH_LOCK= to not wait)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/benchmarks/lib.sh"
PAYMENTS="${PAYMENTS:-20000}"
CONCURRENCY="${CONCURRENCY:-64}"
MIXED_FLOWS="${MIXED_FLOWS:-2000}"
GROWTH_PAYMENTS="${GROWTH_PAYMENTS:-200000}"
POOL="${POOL:-10}"
AFTER_PAYMENTS="${AFTER_PAYMENTS:-2000}"
AFTER_FLOWS="${AFTER_FLOWS:-300}"
AFTER_SECONDS="${AFTER_SECONDS:-30}"
HOT_TABLES="${HOT_TABLES:-payments idempotency_keys ledger_entries ledger_transactions outbox psp_calls}"
LOCK="${BENCH_LOCK-/tmp/kopek-mvn.lock}"
API_KEY="sk_test_bench_0123456789abcdef"
BENCH_ADMIN_TOKEN="bench-admin-token-0123456789abcdef"
LIMIT=1000000

if [[ -z "${BENCH_LOCKED:-}" ]]; then
    if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
        (cd "$ROOT" && locked ./mvnw -q -o -DskipTests -pl acquirer-simulator,kopek-server,benchmarks -am package)
    fi
    if [[ -n "$LOCK" ]]; then
        echo "waiting for $LOCK..."
        exec env BENCH_LOCKED=1 flock "$LOCK" bash "${BASH_SOURCE[0]}" "$@"
    fi
fi

WORK="$(mktemp -d /tmp/kopek-index-use.XXXXXX)"
KOPEK_JAR="${KOPEK_JAR:-$ROOT/kopek-server/target/kopek-server-0.1.0-SNAPSHOT.jar}"
cp "$KOPEK_JAR" "$WORK/kopek-server.jar"
echo "work directory $WORK; jar $KOPEK_JAR"
PG_BIN="$WORK/pg/bin" PGDATA="$WORK/pgdata" KOPEK_PID="" SIM_PID=""
cleanup() {
    stop_process "$KOPEK_PID"
    stop_process "$SIM_PID"
    pg_stop_if_running
    rm -rf "$PGDATA" "$WORK/pg" "$WORK/kopek-server.jar"
}
trap cleanup EXIT

pg_cluster shared_preload_libraries=pg_stat_statements,auto_explain pg_stat_statements.max=5000 timezone=UTC \
    shared_buffers=256MB wal_buffers=16MB checkpoint_timeout=15min max_wal_size=2GB min_wal_size=256MB \
    wal_level=logical max_connections=200
psql_at -d postgres -c "CREATE DATABASE kopek" >/dev/null
psql_at -d kopek -c "CREATE EXTENSION pg_stat_statements" >/dev/null
psql_at -d postgres -c "CREATE EXTENSION pg_walinspect" >/dev/null

start_simulator -jar "$ROOT/acquirer-simulator/target/acquirer-simulator-0.1.0-SNAPSHOT-exec.jar"
start_kopek -Xmx512m -jar "$WORK/kopek-server.jar"
driver=(java -jar "$ROOT/benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar")
common=(--url "http://127.0.0.1:$HTTP_PORT" --api-key "$API_KEY" --simulator-url "http://127.0.0.1:$SIM_PORT")
echo "-- closed loop: $PAYMENTS payments (and 2000 to warm up); mixed workload: $MIXED_FLOWS flows"
lsn0="$(psql_at -d postgres -c "SELECT pg_current_wal_insert_lsn()")"
"${driver[@]}" "${common[@]}" --payments "$PAYMENTS" --concurrency "$CONCURRENCY" --warmup 2000 \
    >"$WORK/driver-closed.txt" 2>&1 || echo "  closed loop driver exited with $?"
lsn1="$(psql_at -d postgres -c "SELECT pg_current_wal_insert_lsn()")"
grep -E '^  (throughput|http)' "$WORK/driver-closed.txt" || true
# The closed loop's WAL by kind of record (pg_walinspect): bytes per payment of the records and of the full-page
# images they carry, largest first. An index insertion is a Btree INSERT_LEAF; an update that is not HOT is a Heap
# UPDATE and an INSERT_LEAF into every index, a HOT one a Heap HOT_UPDATE alone.
n_closed=$((PAYMENTS + 2000))
psql_at -d postgres -F ' | ' -c "SELECT rpad(\"resource_manager/record_type\", 28), count,
        round(count::numeric / $n_closed, 2) AS per_payment, round(record_size::numeric / $n_closed) AS record_bytes,
        round(fpi_size::numeric / $n_closed) AS fpi_bytes
    FROM pg_get_wal_stats('$lsn0', '$lsn1', per_record => true)
    WHERE count > 0 ORDER BY record_size + fpi_size DESC LIMIT 20" >"$WORK/wal.txt"
psql_at -d postgres -c "SELECT round(('$lsn1'::pg_lsn - '$lsn0'::pg_lsn) / $n_closed)" >"$WORK/wal-total.txt"
if [[ "$MIXED_FLOWS" -gt 0 ]]; then
    "${driver[@]}" mixed "${common[@]}" --flows "$MIXED_FLOWS" --warmup 200 --concurrency "$CONCURRENCY" \
        --refund-percent 50 >"$WORK/driver-mixed.txt" 2>&1 || echo "  mixed driver exited with $?"
    grep -E '^  (throughput|http)' "$WORK/driver-mixed.txt" || true
fi
psql_at -d kopek -F ' | ' -c "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
    WHERE n_tup_upd > 0 OR n_tup_ins > 0 ORDER BY n_tup_ins + n_tup_upd DESC" >"$WORK/tables.txt"
if [[ "$GROWTH_PAYMENTS" -gt 0 ]]; then
    echo "-- growing the database to $GROWTH_PAYMENTS payments (preload-payments.sql)"
    psql_at -d kopek -v target="$GROWTH_PAYMENTS" -f "$ROOT/benchmarks/preload-payments.sql" >"$WORK/preload.log" 2>&1 \
        || { echo "  preload failed:"; tail -5 "$WORK/preload.log"; }
fi
psql_at -d kopek -c ANALYZE

# The plans of what Kopek runs on the filled database: auto_explain's settings reach the pool's sessions on reload.
alter_system() { for kv in "$@"; do psql_at -d postgres -c "ALTER SYSTEM SET $kv" >/dev/null; done
    psql_at -d postgres -c "SELECT pg_reload_conf()" >/dev/null; }
log_start="$(stat -c %s "$WORK/postgres.log")"
alter_system "auto_explain.log_min_duration = 0" "auto_explain.log_nested_statements = on" "auto_explain.log_format = json"
sleep 1
echo "-- on the filled database, every plan logged: $AFTER_PAYMENTS payments, $AFTER_FLOWS mixed flows, $AFTER_SECONDS s"
"${driver[@]}" "${common[@]}" --payments "$AFTER_PAYMENTS" --concurrency "$CONCURRENCY" --warmup 0 \
    >"$WORK/driver-after.txt" 2>&1 || echo "  closed loop driver exited with $?"
if [[ "$AFTER_FLOWS" -gt 0 ]]; then
    "${driver[@]}" mixed "${common[@]}" --flows "$AFTER_FLOWS" --warmup 0 --concurrency "$CONCURRENCY" \
        --refund-percent 50 >"$WORK/driver-after-mixed.txt" 2>&1 || echo "  mixed driver exited with $?"
fi
sleep "$AFTER_SECONDS"
alter_system "auto_explain.log_min_duration = -1"
tail -c +"$((log_start + 1))" "$WORK/postgres.log" >"$WORK/plans.log"
python3 "$ROOT/benchmarks/pg-index-use.py" "$HOT_TABLES" <"$WORK/plans.log" >"$WORK/uses.tsv"

echo
echo "== statements on the hot tables in the logged plans: runs | indexes read | sequential scans of hot tables | statement"
awk -F'\t' '{ printf "  %7s | %s | %s | %s\n", $1, $2, $3, substr($4, 1, 140) }' "$WORK/uses.tsv"
echo
echo "== every index of the hot tables: size, scans since start (pg_stat_user_indexes), logged statements reading it"
for t in $HOT_TABLES; do
    psql_at -d kopek -F $'\t' -c "SELECT indexrelname, pg_size_pretty(pg_relation_size(indexrelid)), idx_scan
        FROM pg_stat_user_indexes WHERE relname = '$t' ORDER BY indexrelname" |
        while IFS=$'\t' read -r idx size scans; do
            readers="$(awk -F'\t' -v i="$idx" '$2 ~ ("(^| )" i "( |$)") { c++ } END { print c + 0 }' "$WORK/uses.tsv")"
            printf '  %-22s %-48s %8s  %10s scans  %s statements\n' "$t" "$idx" "$size" "$scans" "$readers"
        done
done
echo
echo "== inserts, updates and HOT updates by table during the workloads (before the growth)"
sed 's/^/  /' "$WORK/tables.txt"
echo
echo "== the closed loop's WAL: $(cat "$WORK/wal-total.txt") bytes per payment; by record: count | per payment | record bytes | full-page image bytes (per payment)"
sed 's/^/  /' "$WORK/wal.txt"
gzip -1 "$WORK/plans.log"   # about 90 MB of JSON plans per run
echo "(logged plans: $WORK/plans.log.gz; statements: $WORK/uses.tsv)"
