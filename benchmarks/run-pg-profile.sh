#!/usr/bin/env bash
# Where PostgreSQL's CPU goes in Kopek's closed loop (issue 25 section 3): run-side-by-side.sh's closed loop, with
# `perf record` on the PostgreSQL processes during its measured run, then perf's tables by symbol and by shared
# object and the samples grouped as benchmarks/HISTORY.md groups callgrind's shares (pg-profile-groups.py).
#
# The embedded binaries keep their symbols but have no frame pointers, so the call chains are unwound from DWARF
# (--call-graph dwarf). perf follows the processes alive when it starts (the pool's backends, the WAL writer, the
# checkpointer): an autovacuum worker started later is not in the profile (run-side-by-side.sh's "postgres by
# process" line counts its CPU).
#
#   benchmarks/run-pg-profile.sh              # needs perf (linux-perf) and root or perf_event_paranoid <= 1
#   PROFILE_SECONDS=10 PROFILE_HZ=499 OUT=/tmp/kopek-pg-profile.XXXX (perf.data and the reports)
#   ANALYZE_FIRST=1 (0 to skip): ANALYZE the hot tables as the measured run starts, before perf starts. Each pooled
#   connection plans a statement once, at its sixth run, and keeps that plan until a table it reads is analyzed; in
#   a new database that is while the tables are nearly empty, and the batches' joins of unnest() with
#   idempotency_keys then read the whole table for every batch (a hash join over a sequential scan) until autovacuum
#   first analyzes it, which in the side-by-side run may fall in the measured minute or after it. The analyze makes
#   the profile the steady state's (benchmarks/pg-profile.md).
#   and run-side-by-side.sh's knobs; the defaults here skip what the profile does not need (open loops shortened,
#   no mixed workload, no latency mode).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
command -v perf >/dev/null || { echo "perf is missing (apt-get install linux-perf)"; exit 1; }
PROFILE_SECONDS="${PROFILE_SECONDS:-10}"
PROFILE_HZ="${PROFILE_HZ:-499}"
OUT="${OUT:-$(mktemp -d /tmp/kopek-pg-profile.XXXXXX)}"
mkdir -p "$OUT"
echo "profile output in $OUT"

# The hook runs as the closed loop's measured run starts (20,000 payments take about 20 s, longer than the profile).
ANALYZE_FIRST="${ANALYZE_FIRST:-1}"
analyze=""
[[ "$ANALYZE_FIRST" != 1 ]] || analyze="psql -h 127.0.0.1 -U postgres -d kopek -qc 'ANALYZE idempotency_keys, payments,
    outbox, ledger_transactions, ledger_entries, ledger_accounts, psp_calls'"
hook="$analyze
pids=\"\$PG_PID\$(ps --ppid \"\$PG_PID\" -o pid= | tr -d ' ' | sed 's/^/,/' | tr -d '\\n')\"
ps --ppid \"\$PG_PID\" -o pid=,args= >'$OUT/processes.txt'
perf record -F $PROFILE_HZ --call-graph dwarf,16384 -p \"\$pids\" -o '$OUT/perf.data' -- sleep $PROFILE_SECONDS"

export MIXED_FLOWS="${MIXED_FLOWS:-0}" LATENCY_PAYMENTS="${LATENCY_PAYMENTS:-0}" OPEN_SECONDS="${OPEN_SECONDS:-5}"
export LONE_PAYMENTS="${LONE_PAYMENTS:-200}" SCRIPT_A_SECONDS="${SCRIPT_A_SECONDS:-10}" WARMUP="${WARMUP:-20000}"
CLOSED_MEASURE_HOOK="$hook" bash "$ROOT/benchmarks/run-side-by-side.sh" | tee "$OUT/side-by-side.txt"

work="$(sed -n 's/^work directory \([^ ]*\).*/\1/p' "$OUT/side-by-side.txt")"
[[ -s "$OUT/perf.data" ]] || { echo "no perf.data: see $work/closed-hook.log"; cat "$work/closed-hook.log"; exit 1; }
# perf keeps the binaries it sampled in its build-id cache, so the reports resolve symbols after the cluster is gone.
perf report -i "$OUT/perf.data" --no-children --sort symbol --stdio -g none >"$OUT/by-symbol-all.txt" 2>/dev/null
perf report -i "$OUT/perf.data" --no-children --sort dso --stdio -g none >"$OUT/by-dso-all.txt" 2>/dev/null
grep -v -e '^#' -e '^$' "$OUT/by-symbol-all.txt" | head -40 >"$OUT/by-symbol.txt" || true
grep -v -e '^#' -e '^$' "$OUT/by-dso-all.txt" | head -15 >"$OUT/by-dso.txt" || true
perf script -i "$OUT/perf.data" -F comm,tid,period,ip,sym,dso 2>/dev/null >"$OUT/samples.txt"
python3 "$ROOT/benchmarks/pg-profile-groups.py" <"$OUT/samples.txt" >"$OUT/groups.txt"
echo
echo "== PostgreSQL's CPU in the closed loop's measured run, $PROFILE_SECONDS s at $PROFILE_HZ Hz (perf)"
echo "-- self time by symbol (top 40; $OUT/by-symbol.txt)"
cat "$OUT/by-symbol.txt"
echo "-- by shared object"
cat "$OUT/by-dso.txt"
echo "-- grouped (pg-profile-groups.py)"
cat "$OUT/groups.txt"
