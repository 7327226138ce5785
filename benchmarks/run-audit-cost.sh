#!/usr/bin/env bash
# What the production audit (docs/invariants.md) costs the database, on a preloaded database (issue 26 §2):
#
#   1. PostgreSQL 17 from the embedded binaries with Kopek's run-mode settings and pg_stat_statements;
#   2. Kopek (the built jar) against it, with the acquirer simulator in a JVM of its own (as run-side-by-side.sh
#      runs it), its audit ticking every AUDIT_INTERVAL;
#   3. SEED payments through the API, then the database grown to GROWTH_PAYMENTS payments with
#      preload-payments.sql (clones of Kopek's own rows, as run-side-by-side.sh grows it);
#   4. the audit left to tick for MEASURE_SECONDS over the grown database while LOAD_WORKERS clients pay through the
#      API (0: no load),
#
# and prints, per check, the slices run and the mean time of one slice (Kopek's kopek_audit_slice timer), the time
# one tick of every check takes, and what that is as a share of one core at the default 30 s interval; then the
# audit's statements in pg_stat_statements (calls, mean time, shared buffers per call), and the audit's share of
# PostgreSQL's execution time under the load, as measured and as it would be at the default 30 s interval. The
# audit's slices read through KOPEK_DB_READ_URL, which names the same server as a role of their own (kopek_audit,
# pg_read_all_data): pg_stat_statements keys its rows by role, so the reads routed to a replica are told apart from
# every other statement: the slices, and a few calls a minute of the Health gauges (no console is open). The
# slices' cursors and findings are written on the primary's pool like the payments'; the running sums of the
# balances check (ledger_audit_sums), written on the primary too, are counted as the audit's. Not part of CI.
#
# Knobs: SEED=2000 GROWTH_PAYMENTS=300000 AUDIT_INTERVAL=1s SLICE=1000 MEASURE_SECONDS=60 LOAD_WORKERS=4
#   SKIP_BUILD=1 KOPEK_JAR=... BENCH_LOCK=/tmp/kopek-mvn.lock (held while measuring; BENCH_LOCK= to not wait)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/benchmarks/lib.sh"
SEED="${SEED:-2000}" GROWTH_PAYMENTS="${GROWTH_PAYMENTS:-300000}" AUDIT_INTERVAL="${AUDIT_INTERVAL:-1s}"
SLICE="${SLICE:-1000}" MEASURE_SECONDS="${MEASURE_SECONDS:-60}" LOAD_WORKERS="${LOAD_WORKERS:-4}"
BENCH_LOCK="${BENCH_LOCK-/tmp/kopek-mvn.lock}"
if [[ -n "$BENCH_LOCK" && -z "${BENCH_LOCKED:-}" ]]; then
    exec env BENCH_LOCKED=1 flock "$BENCH_LOCK" "$0" "$@"
fi
if [[ -z "${SKIP_BUILD:-}" ]]; then
    (cd "$ROOT" && ./mvnw -q -o -DskipTests -pl acquirer-simulator,kopek-server -am package)
fi
command -v psql >/dev/null || PATH="/usr/lib/postgresql/15/bin:$PATH"
command -v psql >/dev/null || { apt-get install -y -qq postgresql-client >/dev/null; }

WORK="$(mktemp -d /tmp/kopek-audit-cost.XXXXXX)"
cp "${KOPEK_JAR:-$ROOT/kopek-server/target/kopek-server-0.1.0-SNAPSHOT.jar}" "$WORK/kopek-server.jar"
cp "$ROOT/acquirer-simulator/target/acquirer-simulator-0.1.0-SNAPSHOT-exec.jar" "$WORK/simulator.jar"
PG_BIN="$WORK/pg/bin" PGDATA="$WORK/pgdata" KOPEK_PID="" SIM_PID=""
cleanup() {
    if [[ -n "${LOAD_PID:-}" ]]; then kill -TERM -- "-$LOAD_PID" 2>/dev/null || true; fi
    stop_process "$KOPEK_PID"
    stop_process "$SIM_PID"
    pg_stop_if_running
    rm -rf "$PGDATA" "$WORK/pg" "$WORK/kopek-server.jar" "$WORK/simulator.jar"
}
trap cleanup EXIT

pg_cluster shared_preload_libraries=pg_stat_statements timezone=UTC fsync=on synchronous_commit=on \
    full_page_writes=on shared_buffers=256MB wal_buffers=16MB checkpoint_timeout=15min max_wal_size=2GB \
    max_connections=200 wal_level=logical
psql_at -d postgres -c "CREATE EXTENSION pg_stat_statements" >/dev/null
psql_at -d postgres -c "CREATE DATABASE kopek" >/dev/null
psql_at -d postgres -c "CREATE ROLE kopek_audit LOGIN IN ROLE pg_read_all_data" >/dev/null

start_simulator -jar "$WORK/simulator.jar"
HTTP_PORT="$(free_port)" API_KEY="sk_test_audit_cost_0123456789"
KOPEK_PSP_SIMULATOR_URL="http://127.0.0.1:$SIM_PORT" \
    KOPEK_DB_URL="jdbc:postgresql://127.0.0.1:$PGPORT/kopek" KOPEK_DB_USER=postgres KOPEK_HTTP_PORT="$HTTP_PORT" \
    KOPEK_DEMO_API_KEY="$API_KEY" KOPEK_ADMIN_TOKEN="audit-cost-admin-token-0123456789" \
    KOPEK_DB_READ_URL="jdbc:postgresql://127.0.0.1:$PGPORT/kopek?user=kopek_audit" \
    KOPEK_INVARIANTS_INTERVAL="$AUDIT_INTERVAL" KOPEK_INVARIANTS_SLICE_SIZE="$SLICE" \
    KOPEK_RATE_LIMIT_WRITES_PER_SECOND=100000 KOPEK_RATE_LIMIT_WRITES_BURST=100000 \
    KOPEK_RATE_LIMIT_GLOBAL_WRITES_PER_SECOND=100000 KOPEK_RATE_LIMIT_GLOBAL_WRITES_BURST=100000 \
    java -Xmx512m -jar "$WORK/kopek-server.jar" >"$WORK/kopek.log" 2>&1 &
KOPEK_PID=$!
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$HTTP_PORT/actuator/health/readiness" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$HTTP_PORT/actuator/health/readiness" >/dev/null \
    || { echo "Kopek did not become ready; the end of its log:"; tail -20 "$WORK/kopek.log"; exit 1; }
echo "Kopek on $HTTP_PORT, PostgreSQL 17 on $PGPORT, work directory $WORK"

pay() {
    curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $API_KEY" -H "Idempotency-Key: seed-$1" \
        -H 'Content-Type: application/json' \
        -d "{\"reference\":\"seed-$1\",\"amount\":$((1000 + $1 % 500)),\"currency\":\"EUR\",\"payment_method\":\"pm_ok\"}" \
        "http://127.0.0.1:$HTTP_PORT/v1/payments"
}
export -f pay; export API_KEY HTTP_PORT
seq 1 "$SEED" | xargs -P 8 -I{} bash -c 'pay {}' | sort | uniq -c | sed 's/^/  seed answers: /'
psql_at -d kopek -v target="$GROWTH_PAYMENTS" -f "$ROOT/benchmarks/preload-payments.sql" 2>&1 | tail -3 | sed 's/^/  /'
psql_at -d kopek -c "ANALYZE" >/dev/null
echo "rows: $(psql_at -d kopek -F ' ' -c "SELECT (SELECT count(*) FROM payments) || ' payments, ' ||
    (SELECT count(*) FROM ledger_transactions) || ' journal transactions, ' || (SELECT count(*) FROM outbox) ||
    ' events, ' || (SELECT count(*) FROM psp_calls) || ' PSP calls'")"

scrape() { curl -s -H "Authorization: Bearer audit-cost-admin-token-0123456789" "http://127.0.0.1:$HTTP_PORT/actuator/prometheus" | grep '^kopek_audit_slice_seconds_\(sum\|count\)'; }
LOAD_PID=""
if (( LOAD_WORKERS > 0 )); then
    # Its own process group, so that the end of the measurement stops every client at once.
    set -m
    (seq 1000001 9999999 | xargs -P "$LOAD_WORKERS" -I{} bash -c 'pay {}' >"$WORK/load.answers") &
    LOAD_PID=$!
    set +m
fi
before="$(scrape)"
psql_at -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
sleep "$MEASURE_SECONDS"
after="$(scrape)"
shares="$(psql_at -d postgres -F ' ' -c "SELECT round(sum(total_exec_time) FILTER (WHERE r.rolname = 'kopek_audit'
            OR s.query LIKE '%ledger_audit_sums%'))::bigint,
        round(sum(total_exec_time))::bigint FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid")"
if [[ -n "$LOAD_PID" ]]; then kill -TERM -- "-$LOAD_PID" 2>/dev/null || true; wait "$LOAD_PID" 2>/dev/null || true; LOAD_PID=""; fi
paid="$(grep -c '^201$' "$WORK/load.answers" 2>/dev/null || true)"
echo "== $MEASURE_SECONDS s of the audit ticking every $AUDIT_INTERVAL, $SLICE rows per slice, under $LOAD_WORKERS" \
    "paying clients (${paid:-0} payments, $(( ${paid:-0} / MEASURE_SECONDS )) per second)"
printf '%s\n%s\n' "$before" "$after" | awk -v interval=30 '
    { split($1, a, /[{}]/); match(a[2], /check="[^"]+"/); c = substr(a[2], RSTART + 7, RLENGTH - 8)
      k = (a[1] ~ /_sum$/) ? "sum" : "count"; v[c, k, ++seen[c, k]] = $2; checks[c] = 1 }
    END { tick = 0
          for (c in checks) { n = v[c, "count", 2] - v[c, "count", 1]; s = v[c, "sum", 2] - v[c, "sum", 1]
              ms = n > 0 ? 1000 * s / n : 0; tick += ms
              printf "  %-34s %5d slices, %8.2f ms per slice\n", c, n, ms }
          printf "  one tick of every check: %.1f ms; at the default 30 s interval: %.3f%% of one core\n", tick,
              100 * tick / (interval * 1000) }'
echo "== the audit's slices in pg_stat_statements (role kopek_audit, and the balances check's running sums written on"
echo "   the primary; calls, mean ms, shared buffers hit+read per call)"
psql_at -d postgres -F ' | ' -c "SELECT calls, round(mean_exec_time::numeric, 2),
        round((shared_blks_hit + shared_blks_read)::numeric / greatest(calls, 1)),
        left(regexp_replace(query, '\s+', ' ', 'g'), 90)
      FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'kopek')
       AND (r.rolname = 'kopek_audit' OR s.query LIKE '%ledger_audit_sums%')
     ORDER BY total_exec_time DESC LIMIT 20" | sed 's/^/  /'
read -r audit_ms all_ms <<<"$shares"
# Ticks run one after the other (a fixed delay after each), so count them rather than derive them from the interval.
ticks="$(printf '%s\n%s\n' "$before" "$after" \
    | awk '/_count/ && /check="ledger_balanced"/ { v[++n] = $2 } END { print (n == 2 ? v[2] - v[1] : 0) }')"
awk -v a="${audit_ms:-0}" -v t="${all_ms:-0}" -v k="${ticks:-0}" -v m="$MEASURE_SECONDS" 'BEGIN {
    scaled = k > 0 ? a / k * m / 30 : 0; rest = t - a
    printf "== PostgreSQL time over the %d s: %.0f ms in all statements, %.0f ms in the slices (role kopek_audit, and the running sums):", m, t, a
    printf " %.2f%% over %d ticks\n", (t > 0 ? 100 * a / t : 0), k
    printf "   at the default 30 s interval (%.0f ticks in %d s): %.0f ms of %.0f ms, %.2f%% of the database time\n",
        m / 30, m, scaled, rest + scaled, (rest + scaled > 0 ? 100 * scaled / (rest + scaled) : 0) }'
echo "== violations found over the grown database: $(curl -s -H 'Authorization: Bearer audit-cost-admin-token-0123456789' \
    "http://127.0.0.1:$HTTP_PORT/v1/ops/invariants" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["violations"], "; passes finished:", ", ".join(c["check"] + " " + str(c["pass"] - 1) for c in d["checks"]))')"
