#!/usr/bin/env bash
# Kopek end to end next to the raw-SQL ceiling, on one durable PostgreSQL 17 cluster, in one command:
#
#   1. starts PostgreSQL 17 from the embedded binaries with Kopek's run-mode settings (fsync, synchronous commit,
#      full-page writes on; DatabaseConfiguration.EmbeddedDatabase.RUN_MODE_SETTINGS) plus pg_stat_statements;
#   2. Script A (benchmarks/script-a, or PERF_DIR) with pgbench at the same client count as Kopek's DB pool;
#   3. Kopek against the same cluster (HTTP -> Kopek -> separate acquirer simulator at zero latency -> settle):
#      warmup, then a closed loop at CONCURRENCY; then open loops at 200/s and at 80% of the measured peak;
#   4. Script A again;
#   5. latency mode: the simulator answers in 3-8 s, LATENCY_PAYMENTS payments all in flight at once;
#
# and prints payments/s, the ratio Kopek / Script A, latency percentiles, the at-most-once check, CPU ms per
# payment by process (from /proc/<pid>/stat around each measured run) and database statements per payment
# (pg_stat_statements). Not part of CI. Needs pgbench and psql (installs Debian's postgresql-client if missing).
#
# Knobs (environment): POOL=10 CONCURRENCY=64 WARMUP=40000 PAYMENTS=20000 SCRIPT_A_SECONDS=20 OPEN_SECONDS=20
#   LONE_PAYMENTS=1000 (one client, sequential: a lone request's latency)
#   MIXED_FLOWS=5000 (0 skips the mixed workload: authorize, capture, refund MIXED_REFUND_PERCENT=50 of the captured,
#   after MIXED_WARMUP=1000 flows; at CONCURRENCY)
#   LATENCY_PAYMENTS=5000 (0 skips latency mode) LATENCY_MIN_MS=3000 LATENCY_MAX_MS=8000
#   GROWTH_PAYMENTS=0 (1000000: grow the database to that many payments with preload-payments.sql at the end, then
#   run the closed loop again and print its throughput as a share of the first one)
#   KOPEK_HEAP=512m SKIP_BUILD=1 KOPEK_JAR=... PERF_DIR=... JFR=1 (records the closed loop's measured run
#   in Kopek with Java Flight Recorder's CPU-time sampler to $WORK/kopek.jfr, and prints it grouped: JfrProfile.java)
#   KOPEK_JVM_OPTS=... SIM_JVM_OPTS=... (extra JVM flags, e.g. another collector); both JVMs log GC to $WORK/*-gc.log
#   ANALYZE_AFTER_WARMUP=1 (0: the closed loop runs on the statistics PostgreSQL has by itself then)
#   CLOSED_MEASURE_HOOK='shell command' run in the background as the closed loop's measured run starts, with PG_PID
#   (the postmaster) and WORK in its environment, output to $WORK/closed-hook.log (run-pg-profile.sh's perf record)
#   BENCH_LOCK=/tmp/kopek-mvn.lock (the lock every other script here takes for Maven): held while measuring, so
#   that builds on the same small machine do not skew the figures (BENCH_LOCK= to not wait).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Run from a private copy: bash reads a script as it goes, so an edit of this file must not change a running one.
# The copy of lib.sh beside it is what the snapshots below source again while the run goes on.
if [[ -z "${BENCH_SCRIPT_COPY:-}" ]]; then
    copy="$(mktemp /tmp/kopek-side-by-side-script.XXXXXX)"
    cp "${BASH_SOURCE[0]}" "$copy"
    cp "$ROOT/benchmarks/lib.sh" "$copy.lib.sh"
    BENCH_ROOT="$ROOT" BENCH_SCRIPT_COPY="$copy" exec bash "$copy" "$@"
fi
ROOT="${BENCH_ROOT:-$ROOT}"
SELF="$BENCH_SCRIPT_COPY"
source "$SELF.lib.sh"
HZ="$(getconf CLK_TCK)"

# ---- snapshot mode: called by the load driver right before and after a measured run -----------------------
# Writes "cpu NAME TICKS" for every process named in $SNAP_PIDS (NAME=PID; postgres counts the postmaster, its
# exited children (cutime) and its live children) and the driver (its parent), and "db ..." counters.
# pg_parts POSTMASTER: "pg NAME TICKS" for the kinds of PostgreSQL process (client backends, WAL writer, checkpointer,
# autovacuum, ...; "exited" is children that ended, autovacuum workers mostly), so a change in the database's CPU per
# payment can be told apart from background work that happened to fall into the measured run.
pg_parts() {
    local pm="$1" c stat kind
    declare -A parts=()
    stat="$(cat "/proc/$pm/stat" 2>/dev/null)" || return 0
    stat="${stat##*) }"; read -r -a f <<<"$stat"
    parts[exited]=$((f[13] + f[14])); parts[postmaster]=$((f[11] + f[12]))
    for c in $(ps --ppid "$pm" -o pid= 2>/dev/null); do
        stat="$(cat "/proc/$c/stat" 2>/dev/null)" || continue
        kind="$(tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null | sed -E 's/^postgres: //; s/^(postgres|[a-z_]+) [a-z_]+ 127\.0\.0\.1.*/backends/; s/ .*//; s/[^a-z_]//g')"
        stat="${stat##*) }"; read -r -a f <<<"$stat"
        parts[${kind:-other}]=$(( ${parts[${kind:-other}]:-0} + f[11] + f[12] ))
    done
    for kind in "${!parts[@]}"; do echo "pg $kind ${parts[$kind]}"; done
}
if [[ "${1:-}" == snapshot ]]; then
    out="$2" driver="$3" db="$4" reset="${5:-}"
    # pg_stat_statements is reset when a measured run starts (so its per-statement list is of that run alone)
    if [[ "$reset" == reset ]]; then psql_at -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null; fi
    {
        for entry in $SNAP_PIDS; do
            name="${entry%%=*}" pid="${entry#*=}"
            if [[ "$name" == postgres ]]; then echo "cpu postgres $(cpu_ticks "$pid" tree)"; pg_parts "$pid"
            else echo "cpu $name $(cpu_ticks "$pid")"; fi
        done
        [[ "$driver" == - ]] || echo "cpu driver $(cpu_ticks "$driver")"
        echo "db statements $(psql_at -d postgres -c "SELECT coalesce(sum(calls),0) FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '$db')")"
        echo "wal bytes $(psql_at -d postgres -c "SELECT pg_current_wal_lsn() - '0/0'")"
        echo "db xacts $(psql_at -d postgres -c "SELECT xact_commit + xact_rollback FROM pg_stat_database
            WHERE datname = '$db'")"
        # updates and HOT updates by table: an update that changes an indexed column (or finds no room on its page)
        # writes every index of the table again
        psql_at -d "$db" -F ' ' -c "SELECT 'upd', relname, n_tup_upd FROM pg_stat_user_tables WHERE n_tup_upd > 0
            UNION ALL SELECT 'hot', relname, n_tup_hot_upd FROM pg_stat_user_tables WHERE n_tup_upd > 0"
        # phases 1 and 3's group commit (kopek_batch_size: requests per batch), from Kopek's Prometheus endpoint
        [[ -z "${KOPEK_METRICS:-}" ]] || curl -s -H "Authorization: Bearer $BENCH_ADMIN_TOKEN" "$KOPEK_METRICS" \
            | awk '/^kopek_batch_size_(count|sum|bucket)[{]/ && /phase="(1|3|3op)"/ {
                  kind = $1; sub(/[{].*/, "", kind); sub(/^kopek_batch_size_/, "", kind)
                  if (kind == "bucket") { match($0, /le="[^"]*"/); kind = "le" substr($0, RSTART + 4, RLENGTH - 5) }
                  match($0, /phase="[^"]*"/); phase = substr($0, RSTART + 7, RLENGTH - 8)
                  print "batch", phase ":" kind, $NF }' || true
    } >"$out"
    exit 0
fi

# ---- waits mode: samples what Kopek's database sessions are doing, 5 times a second, until $2.on is removed ----
if [[ "${1:-}" == waits ]]; then
    touch "$2.on"
    while [[ -f "$2.on" ]]; do
        psql_at -d postgres -c "SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event,
                'running') ELSE state END FROM pg_stat_activity
             WHERE datname = 'kopek' AND backend_type = 'client backend' AND state <> 'idle'
               AND pid <> pg_backend_pid()" >>"$2" 2>/dev/null || true
        sleep 0.2
    done
    exit 0
fi

POOL="${POOL:-10}"
CONCURRENCY="${CONCURRENCY:-64}"
WARMUP="${WARMUP:-40000}"
PAYMENTS="${PAYMENTS:-20000}"
SCRIPT_A_SECONDS="${SCRIPT_A_SECONDS:-20}"
OPEN_SECONDS="${OPEN_SECONDS:-20}"
LATENCY_PAYMENTS="${LATENCY_PAYMENTS:-5000}"
LONE_PAYMENTS="${LONE_PAYMENTS:-1000}"
MIXED_FLOWS="${MIXED_FLOWS:-5000}"
MIXED_WARMUP="${MIXED_WARMUP:-1000}"
MIXED_REFUND_PERCENT="${MIXED_REFUND_PERCENT:-50}"
GROWTH_PAYMENTS="${GROWTH_PAYMENTS:-0}"
LATENCY_MIN_MS="${LATENCY_MIN_MS:-3000}"
LATENCY_MAX_MS="${LATENCY_MAX_MS:-8000}"
# Kopek's heap, fixed at this size (-Xms = -Xmx) as its image fixes it (InitialRAMPercentage = MaxRAMPercentage): a
# G1 heap left to start small stays near 130 MB and marks its live set again every 0.7 s (benchmarks/kopek-profile.md).
KOPEK_HEAP="${KOPEK_HEAP:-512m}"
# The rate limiter stays on (its cost is part of every request) with limits far above what the driver sends: one
# demo merchant sends everything here.
LIMIT="${RATE_LIMIT:-1000000}"
PERF_DIR="${PERF_DIR:-$ROOT/benchmarks/script-a}"
LOCK="${BENCH_LOCK-/tmp/kopek-mvn.lock}"
API_KEY="sk_test_bench_0123456789abcdef"
export BENCH_ADMIN_TOKEN="bench-admin-token-0123456789abcdef"

# ---- build, outside the measuring lock (the build takes the Maven lock itself) ------------------------------
if [[ -z "${BENCH_LOCKED:-}" ]]; then
    if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
        modules="acquirer-simulator,kopek-server,benchmarks"
        [[ -z "${KOPEK_JAR:-}" ]] || modules="acquirer-simulator,benchmarks"
        echo "building $modules (waiting for ${LOCK:-no lock})..."
        (cd "$ROOT" && locked ./mvnw -q -o -DskipTests -pl "$modules" -am package)
    fi
    if ! command -v pgbench >/dev/null || ! command -v psql >/dev/null; then
        echo "pgbench/psql missing: installing Debian's postgresql-client"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
    fi
    if [[ -n "$LOCK" ]]; then
        echo "waiting for $LOCK to measure alone..."
        exec env BENCH_LOCKED=1 flock "$LOCK" bash "$SELF" "$@"
    fi
    export BENCH_LOCKED=1
fi

WORK="$(mktemp -d /tmp/kopek-side-by-side.XXXXXX)"
KOPEK_JAR="${KOPEK_JAR:-$ROOT/kopek-server/target/kopek-server-0.1.0-SNAPSHOT.jar}"
cp "$KOPEK_JAR" "$WORK/kopek-server.jar"
cp "$ROOT/benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar" "$WORK/benchmarks.jar"
cp "$ROOT/acquirer-simulator/target/acquirer-simulator-0.1.0-SNAPSHOT-exec.jar" "$WORK/simulator.jar"
echo "work directory $WORK (logs, driver output, pgbench logs)"

PG_BIN="$WORK/pg/bin" PGDATA="$WORK/pgdata" KOPEK_PID="" SIM_PID="" PG_PID=""
cleanup() {
    # A JVM out of memory may not act on SIGTERM: give it 30 s, then SIGKILL (a hung cleanup holds BENCH_LOCK).
    if [[ -n "$KOPEK_PID" ]]; then
        kill -TERM "$KOPEK_PID" 2>/dev/null || true
        for _ in $(seq 1 30); do kill -0 "$KOPEK_PID" 2>/dev/null || break; sleep 1; done
        kill -KILL "$KOPEK_PID" 2>/dev/null || true
        wait "$KOPEK_PID" 2>/dev/null || true
    fi
    stop_process "$SIM_PID"
    pg_stop_if_running
    rm -rf "$PGDATA" "$WORK/pg" "$SELF" "$SELF.lib.sh"
}
trap cleanup EXIT

# ---- PostgreSQL 17: the embedded binaries, Kopek's run-mode settings ------------------------------------------
# Keep in step with DatabaseConfiguration.EmbeddedDatabase.RUN_MODE_SETTINGS (DurableEmbeddedDatabaseTest).
PG_SETTINGS=(fsync=on synchronous_commit=on full_page_writes=on shared_buffers=256MB wal_buffers=16MB
    checkpoint_timeout=15min max_wal_size=2GB min_wal_size=256MB checkpoint_completion_target=0.9
    max_connections=200 wal_level=logical)
pg_cluster shared_preload_libraries=pg_stat_statements pg_stat_statements.max=2000 timezone=UTC "${PG_SETTINGS[@]}"
PG_PID="$(head -1 "$PGDATA/postmaster.pid")"
psql_at -d postgres -c "CREATE EXTENSION pg_stat_statements" >/dev/null
psql_at -d postgres -c "CREATE DATABASE kopek" >/dev/null
durable="$(psql_at -d postgres -F ' ' -c "SELECT string_agg(name || '=' || current_setting(name), ' ' ORDER BY name)
    FROM pg_settings WHERE name IN ('fsync','synchronous_commit','full_page_writes','shared_buffers','wal_buffers',
    'checkpoint_timeout','max_wal_size')")"
echo "PostgreSQL $(psql_at -d postgres -c 'SHOW server_version') on 127.0.0.1:$PGPORT, pid $PG_PID: $durable"
psql_at -d postgres -f "$PERF_DIR/script-a-schema.sql" >/dev/null

cores="$(nproc)"
busy_jiffies() { awk '/^cpu /{t=0; for(i=2;i<=NF;i++) t+=$i; print t-$5-$6, t}' /proc/stat; }
others_running() { # other processes using the machine while we measure (a shared machine)
    ps -eo pid=,pcpu=,comm= --sort=-pcpu | awk '$2 > 5 && $3 != "ps" {print $3 "(" $2 "%)"}' | head -5 | tr '\n' ' '
}

# ---- Script A -------------------------------------------------------------------------------------------------
# script_a NAME: pgbench at POOL clients; prints its figures and sets SA_RATE.
script_a() {
    local name="$1" out="$WORK/pgbench-$1.txt" t0 t1 m0 m1
    rm -f "$WORK"/pgbench_log.*
    SNAP_PIDS="postgres=$PG_PID" bash "$SELF" snapshot "$WORK/snap-$name-0" - pay reset
    m0="$(busy_jiffies)"
    t0="$(date +%s%N)"
    # bash's time: user and system seconds of pgbench itself
    { TIMEFORMAT='%U %S'; time (cd "$WORK" && pgbench -h 127.0.0.1 -p "$PGPORT" -U postgres -n -M prepared \
        -f "$PERF_DIR/script-a.sql" -c "$POOL" -j 2 -T "$SCRIPT_A_SECONDS" -l --log-prefix=pgbench_log pay \
        >"$out" 2>&1); } 2>"$WORK/pgbench-$name.time"
    t1="$(date +%s%N)"
    m1="$(busy_jiffies)"
    SNAP_PIDS="postgres=$PG_PID" bash "$SELF" snapshot "$WORK/snap-$name-1" - pay
    local tx tps lat
    tx="$(awk '/number of transactions actually processed/{split($NF,a,"/"); print a[1]}' "$out")"
    tps="$(awk '/^tps = /{print $3; exit}' "$out")"
    lat="$(cat "$WORK"/pgbench_log.* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {
        printf "p50 %.1f  p99 %.1f  max %.1f", a[int(NR*0.5)], a[int(NR*0.99)], a[NR]}')"
    read -r pu ps <"$WORK/pgbench-$name.time"
    SA_RATE="$tps"
    printf '  Script A %-8s %8.1f payments/s (%s payments, %s clients, %s s), latency ms %s\n' \
        "$name" "$tps" "$tx" "$POOL" "$SCRIPT_A_SECONDS" "$lat"
    cpu_line "$WORK/snap-$name-0" "$WORK/snap-$name-1" "$tx" "pgbench=$(awk -v u="$pu" -v s="$ps" 'BEGIN{print (u+s)*1000}')"
    machine_line "$m0" "$m1"
}

# cpu_line BEFORE AFTER PAYMENTS [extra=ms]: CPU ms per payment by process and statements per payment.
cpu_line() {
    local before="$1" after="$2" n="$3" extra="${4:-}"
    awk -v n="$n" -v hz="$HZ" -v extra="$extra" '
        FNR == NR { v[$1 " " $2] = $3; next }
        { d[$1 " " $2] = $3 - v[$1 " " $2]; order[++k] = $1 " " $2 }
        END {
            line = "  cpu ms/payment "; total = 0
            for (i = 1; i <= k; i++) { key = order[i]; split(key, p, " ")
                if (p[1] == "cpu") { ms = d[key] * 1000 / hz / n; total += ms; line = line sprintf("%s %.3f  ", p[2], ms) } }
            if (extra != "") { split(extra, e, "="); ms = e[2] / n; total += ms; line = line sprintf("%s %.3f  ", e[1], ms) }
            print line sprintf("= %.3f", total)
            pg = ""; for (key in d) { split(key, p, " "); if (p[1] == "pg" && d[key] > 0) pg = pg sprintf("%s %.3f  ", p[2], d[key] * 1000 / hz / n) }
            if (pg != "") print "  postgres   by process: " pg
            upd = ""; for (key in d) { split(key, p, " "); if (p[1] == "upd" && d[key] > 0)
                upd = upd sprintf("%s %.2f/payment %.0f%% HOT  ", p[2], d[key] / n, 100 * d["hot " p[2]] / d[key]) }
            if (upd != "") print "  updates    " upd "(pg_stat_user_tables)"
            printf "  database   %.1f statements + %.1f commits = %.1f round trips/payment (statements: pg_stat_statements," \
                " which leaves out BEGIN/COMMIT; transactions: pg_stat_database), %.0f bytes WAL/payment\n",
                d["db statements"] / n, d["db xacts"] / n, (d["db statements"] + d["db xacts"]) / n, d["wal bytes"] / n
        }' "$before" "$after"
}
machine_line() {
    read -r b0 a0 <<<"$1"; read -r b1 a1 <<<"$2"
    awk -v b="$((b1 - b0))" -v a="$((a1 - a0))" -v others="$(others_running)" 'BEGIN {
        printf "  machine    %.0f%% busy (/proc/stat); busiest processes now: %s\n", 100 * b / a, others }'
}

# batch_line SNAP0 SNAP1: the batches in the measured run (kopek_batch_size, a histogram), phase 1's (one statement
# each) and phase 3's (one transaction of two statements each; "3op" for captures, voids and refunds): batches,
# requests, the mean batch and the share of batches by size. Nothing for a phase the server has no such metric for.
batch_line() {
    awk '$1 == "batch" { v[FILENAME == ARGV[1] ? 0 : 1, $2] = $3 }
        END {
            split("1 3 3op", phases, " "); split("statements transactions transactions", units, " ")
            for (p = 1; p <= 3; p++) {
                f = phases[p] ":"
                n = v[1, f "count"] - v[0, f "count"]; r = v[1, f "sum"] - v[0, f "sum"]
                if (n <= 0) continue
                line = sprintf("%s phase %s: %d %s for %d requests, %.1f requests per batch; batches of",
                    p == 1 ? "  batches   " : "            ", phases[p], n, units[p], r, r / n)
                prev = 0; split("1 2 4 8 16 32 64", le, " ")
                for (i = 1; i <= 7; i++) {
                    c = v[1, f "le" le[i] ".0"] - v[0, f "le" le[i] ".0"]
                    if (c - prev > 0) line = line sprintf(" <=%s: %.0f%%", le[i], 100 * (c - prev) / n)
                    prev = c
                }
                print line " (of batches; kopek_batch_size)"
            }
        }' "$1" "$2"
}

echo
echo "== Script A (raw SQL ceiling), before Kopek"
script_a before
SA_BEFORE="$SA_RATE"

# ---- Kopek end to end -----------------------------------------------------------------------------------------
start_simulator ${SIM_JVM_OPTS:-} -Xlog:gc:file="$WORK/simulator-gc.log" -jar "$WORK/simulator.jar"
start_kopek "-Xms$KOPEK_HEAP" "-Xmx$KOPEK_HEAP" ${KOPEK_JVM_OPTS:-} -Xlog:gc:file="$WORK/kopek-gc.log" \
    -jar "$WORK/kopek-server.jar" --kopek.psp.read-timeout=10s --kopek.psp.budget=20s
export SNAP_PIDS="kopek=$KOPEK_PID postgres=$PG_PID simulator=$SIM_PID"
export KOPEK_METRICS="http://127.0.0.1:$HTTP_PORT/actuator/prometheus"
echo
echo "== Kopek (pid $KOPEK_PID, heap $KOPEK_HEAP, pool $POOL, rate limits on at $LIMIT/s) -> simulator (pid $SIM_PID, separate JVM) -> PostgreSQL"

# kopek NAME DRIVER-ARGS...: one driver run; snapshots around its measured run; prints the driver's lines.
kopek() {
    local name="$1"; shift
    local m0 m1
    m0="$(busy_jiffies)"
    # What Kopek's heap holds 15 s into latency mode (5,000 requests in flight). Only there: a class histogram is a
    # full collection and a heap walk, a stop of up to a second, and in any measured loop it was the p99.
    if [[ "$name" == latency ]]; then
        (sleep 15; jcmd "$KOPEK_PID" GC.class_histogram 2>/dev/null | head -40 >"$WORK/histogram-$name.txt") &
    fi
    local workload=()
    [[ "$name" != mixed* ]] || workload=(mixed)
    local hook="" analyze=""
    # The closed loop starts from statistics of tables the warm-up filled: on a new database each pooled connection
    # fixes its plan for a batch statement on its sixth run, when the tables are nearly empty, and keeps a plan that
    # reads all of idempotency_keys per batch until autovacuum's first ANALYZE, which may come in the middle of the
    # measured run or after it (benchmarks/pg-profile.md). An ANALYZE invalidates those plans; a production database
    # is analyzed. ANALYZE_AFTER_WARMUP=0 measures the cold statistics instead.
    if [[ "$name" == closed && "${ANALYZE_AFTER_WARMUP:-1}" != 0 ]]; then
        analyze="psql -X -q -h 127.0.0.1 -p $PGPORT -U postgres -d kopek -c ANALYZE; "
    fi
    # JFR=1: the recording covers the closed loop's measured run and nothing else (a fixed delay from the start
    # missed it once the loop got faster). The CPU-time sampler (JDK 25) samples every thread by the CPU it used,
    # where the execution sampler sees only threads running Java code, at most a few per period.
    local jfr_start="" jfr_stop=""
    if [[ "$name" == closed && "${JFR:-0}" == 1 ]]; then
        jfr_start="jcmd $KOPEK_PID JFR.start name=closed settings=profile jdk.CPUTimeSample#enabled=true filename='$WORK/kopek.jfr' >/dev/null; "
        jfr_stop="; jcmd $KOPEK_PID JFR.stop name=closed >/dev/null"
    fi
    if [[ "$name" == closed && -n "${CLOSED_MEASURE_HOOK:-}" ]]; then
        printf '%s\n' "$CLOSED_MEASURE_HOOK" >"$WORK/closed-hook.sh"
        hook="; (PG_PID=$PG_PID WORK='$WORK' bash '$WORK/closed-hook.sh' >'$WORK/closed-hook.log' 2>&1 &)"
    fi
    set +e
    java -jar "$WORK/benchmarks.jar" "${workload[@]}" --url "http://127.0.0.1:$HTTP_PORT" --api-key "$API_KEY" \
        --simulator-url "http://127.0.0.1:$SIM_PORT" \
        --before-measure "$analyze$jfr_start""bash '$SELF' snapshot '$WORK/snap-$name-0' \$PPID kopek reset; (bash '$SELF' waits '$WORK/waits-$name' &)$hook" \
        --after-measure "rm -f '$WORK/waits-$name.on'; bash '$SELF' snapshot '$WORK/snap-$name-1' \$PPID kopek$jfr_stop" "$@" >"$WORK/driver-$name.txt" 2>"$WORK/driver-$name.err"
    local rc=$?
    set -e
    m1="$(busy_jiffies)"
    grep -E '^  (throughput|latency|http|status|errors|problem|simulator|  |db pool|in flight)' "$WORK/driver-$name.txt" \
        | grep -v '^  timeline' || true
    [[ $rc == 0 ]] || echo "  driver exited with $rc (2 = money movements at the simulator do not match the 2xx answers)"
    local n; n="$(sed -n 's/^RESULT.* captured=\([0-9]*\).*/\1/p' "$WORK/driver-$name.txt")"
    local answered; answered="$(sed -n 's/^  throughput .*(\([0-9]*\) answered.*/\1/p' "$WORK/driver-$name.txt")"
    [[ "${answered:-0}" -gt 0 ]] || answered=1   # nothing answered: per-payment figures are then per run
    cpu_line "$WORK/snap-$name-0" "$WORK/snap-$name-1" "${answered:-1}"
    batch_line "$WORK/snap-$name-0" "$WORK/snap-$name-1"
    machine_line "$m0" "$m1"
    if [[ -s "$WORK/waits-$name" ]]; then
        sort "$WORK/waits-$name" | uniq -c | sort -rn | awk -v samples="$(wc -l <"$WORK/waits-$name")" '
            NR <= 6 { line = line sprintf("%s %.0f%%  ", $2, 100 * $1 / samples) }
            END { print "  db sessions " line "(Kopek'"'"'s non-idle sessions, sampled 5/s)" }'
    fi
    psql_at -d postgres -F ' | ' -c "SELECT round(calls::numeric / ${answered:-1}, 2), round(total_exec_time::numeric / calls, 3),
        left(regexp_replace(query, '\s+', ' ', 'g'), 110) FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'kopek') ORDER BY calls DESC, total_exec_time DESC LIMIT 25" \
        >"$WORK/statements-$name.txt"
}

echo "-- closed loop: $WARMUP warmup + $PAYMENTS payments at concurrency $CONCURRENCY"
kopek closed --payments "$PAYMENTS" --concurrency "$CONCURRENCY" --warmup "$WARMUP"
PEAK="$(sed -n 's/^RESULT.* captured_per_s=\([0-9.]*\).*/\1/p' "$WORK/driver-closed.txt")"
echo "   (per statement, calls/payment | mean ms | query: $WORK/statements-closed.txt)"
if [[ -s "$WORK/kopek.jfr" ]]; then
    java "$ROOT/benchmarks/JfrProfile.java" "$WORK/kopek.jfr" 60 >"$WORK/kopek-profile.txt" 2>&1 || true
    echo "   Kopek's CPU in the closed loop, by the JFR's CPU-time samples (whole: $WORK/kopek-profile.txt):"
    sed -n '/^== where/,/^== whose/p' "$WORK/kopek-profile.txt" | grep -v '^==' | head -8 | sed 's/^/     /'
fi
echo "-- open loop at 200 payments/s for $OPEN_SECONDS s"
kopek open200 --rate 200 --duration-s "$OPEN_SECONDS" --warmup 2000
rate80="$(awk -v p="${PEAK:-0}" 'BEGIN{printf "%.0f", p * 0.8}')"
if [[ "$rate80" -gt 0 ]]; then
    echo "-- open loop at 80% of the peak: $rate80 payments/s for $OPEN_SECONDS s"
    kopek open80 --rate "$rate80" --duration-s "$OPEN_SECONDS" --warmup 2000
fi

# A lone request: one client, one payment at a time, so the figure is the pipeline's own latency with nothing
# queued beside it (batching must not make it worse, issue 25).
echo "-- lone request: one client, $LONE_PAYMENTS sequential payments"
kopek lone --payments "$LONE_PAYMENTS" --concurrency 1 --warmup 200

# The mixed workload (issue 25): authorize (manual capture), capture, refund a share of the captured payments.
if [[ "$MIXED_FLOWS" -gt 0 ]]; then
    echo "-- mixed workload: $MIXED_WARMUP warmup + $MIXED_FLOWS flows at concurrency $CONCURRENCY: authorize, capture," \
        "refund $MIXED_REFUND_PERCENT% (figures per payment below are per operation answered)"
    kopek mixed --flows "$MIXED_FLOWS" --warmup "$MIXED_WARMUP" --concurrency "$CONCURRENCY" \
        --refund-percent "$MIXED_REFUND_PERCENT"
    echo "   (per statement: $WORK/statements-mixed.txt)"
fi

# Which indexes Kopek's queries used (idx_scan since the cluster started): an index on a hot table that no query
# reads only costs writes and WAL.
psql_at -d kopek -F ' | ' -c "SELECT relname, indexrelname, idx_scan, pg_size_pretty(pg_relation_size(indexrelid))
    FROM pg_stat_user_indexes ORDER BY relname, indexrelname" >"$WORK/indexes.txt"
psql_at -d kopek -F ' | ' -c "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
    WHERE n_tup_upd > 0 OR n_tup_ins > 0 ORDER BY n_tup_ins + n_tup_upd DESC" >"$WORK/tables.txt"
echo "   (indexes and their scans: $WORK/indexes.txt; inserts, updates, HOT updates: $WORK/tables.txt)"

echo
echo "== Script A again, after Kopek (the same cluster, now holding Kopek's data too)"
script_a after
SA_AFTER="$SA_RATE"

# Growth before latency mode: 5,000 requests in flight may leave Kopek out of heap (benchmarks/HISTORY.md).
GROWN=""
if [[ "$GROWTH_PAYMENTS" -gt 0 ]]; then
    echo
    echo "== growth: the database grown to $GROWTH_PAYMENTS payments (clones of Kopek's own, preload-payments.sql), then the closed loop again"
    g0="$(date +%s)"
    psql_at -d kopek -v target="$GROWTH_PAYMENTS" -f "$ROOT/benchmarks/preload-payments.sql" 2>&1 | sed 's/^/  /'
    psql_at -d kopek -c CHECKPOINT >/dev/null
    echo "  preloaded in $(( $(date +%s) - g0 )) s"
    kopek grown --payments "$PAYMENTS" --concurrency "$CONCURRENCY" --warmup 5000
    GROWN="$(sed -n 's/^RESULT.* captured_per_s=\([0-9.]*\).*/\1/p' "$WORK/driver-grown.txt")"
fi

if [[ "$LATENCY_PAYMENTS" -gt 0 ]]; then
    echo
    echo "== latency mode: the PSP answers in $LATENCY_MIN_MS..$LATENCY_MAX_MS ms, $LATENCY_PAYMENTS payments at once, pool $POOL, heap $KOPEK_HEAP"
    kopek latency --payments "$LATENCY_PAYMENTS" --concurrency "$LATENCY_PAYMENTS" --warmup 0 \
        --latency-ms "$LATENCY_MIN_MS" --latency-max-ms "$LATENCY_MAX_MS" --timeout-s 60
    echo "  kopek heap limit -Xmx$KOPEK_HEAP: $(grep -c OutOfMemoryError "$WORK/kopek.log" || true) OutOfMemoryError in its log;" \
        "$(jcmd "$KOPEK_PID" GC.heap_info 2>/dev/null | grep -m1 -o 'total [0-9]*K, used [0-9]*K' || echo 'heap info n/a')"
fi


echo
errors="$(grep -cE '^[0-9TZ:.-]+ +(ERROR|WARN) ' "$WORK/kopek.log" || true)"
echo "kopek log: $errors ERROR/WARN lines"; grep -E '^[0-9TZ:.-]+ +(ERROR|WARN) ' "$WORK/kopek.log" | head -5 || true
SA_MEAN="$(awk -v a="$SA_BEFORE" -v b="$SA_AFTER" 'BEGIN{printf "%.1f", (a + b) / 2}')"
RATIO="$(awk -v k="${PEAK:-0}" -v s="$SA_MEAN" 'BEGIN{printf "%.2f", k / s}')"
o200="$(sed -n 's/^RESULT.* p50_ms=\([0-9.]*\) p99_ms=\([0-9.]*\).*/p50 \1 p99 \2/p' "$WORK/driver-open200.txt")"
o80="$(sed -n 's/^RESULT.* p50_ms=\([0-9.]*\) p99_ms=\([0-9.]*\).*/p50 \1 p99 \2/p' "$WORK/driver-open80.txt" 2>/dev/null)"
echo "== summary"
echo "  Script A  $SA_BEFORE / $SA_AFTER payments/s (before / after Kopek), mean $SA_MEAN"
echo "  Kopek     ${PEAK:-?} payments/s (201 captured) closed loop at concurrency $CONCURRENCY, pool $POOL: ratio $RATIO x Script A"
echo "  open loop 200/s: ${o200:-?} ms; $rate80/s (80% of peak): ${o80:-?} ms"
lone="$(sed -n 's/^RESULT.* p50_ms=\([0-9.]*\) p99_ms=\([0-9.]*\).*/p50 \1 p99 \2/p' "$WORK/driver-lone.txt")"
echo "  lone      one client, sequential payments: ${lone:-?} ms"
if [[ "$MIXED_FLOWS" -gt 0 ]]; then
    mixed="$(sed -n 's/^RESULT mixed \(flows_per_s.*\)/\1/p' "$WORK/driver-mixed.txt")"
    check="$(sed -n 's/^RESULT mixed_check //p' "$WORK/driver-mixed.txt")"
    echo "  mixed     ${mixed:-?} ${check:-money_ok=?}"
fi
if [[ -n "$GROWN" ]]; then
    echo "  growth    ${GROWN} payments/s with $GROWTH_PAYMENTS payments stored: $(awk -v g="$GROWN" -v p="${PEAK:-0}" \
        'BEGIN{printf "%.0f%%", 100 * g / p}') of the closed loop above (target 80%)"
fi
echo "SUMMARY script_a_per_s=$SA_MEAN kopek_per_s=${PEAK:-0} ratio=$RATIO"
