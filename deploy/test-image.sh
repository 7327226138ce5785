#!/usr/bin/env bash
# Runs Kopek's image as an operator would, with podman, and checks what the image promises (issue 27 §1): it
# becomes ready (its readiness probe), a payment is captured through the published port, every process in it runs
# as its non-root user, SIGTERM lets a payment in flight finish before it stops (and leaves no key to reclaim),
# and a new container on the same volume still has the data. The PSP is the simulator's image beside it.
# Needs the images of deploy/images.sh; prints each check, fails at the first that does not hold.
set -euo pipefail
# shellcheck source=deploy/podman-env.sh
source "$(dirname "$0")/podman-env.sh"
kopek_image=${KOPEK_REGISTRY:-localhost}/kopek:0.1.0-SNAPSHOT
simulator_image=${KOPEK_REGISTRY:-localhost}/kopek-simulator:0.1.0-SNAPSHOT
key=sk_test_demo_0123456789abcdef
admin=image-run-admin-token
net=kopek-image-run
out="$work/image-run"
mkdir -p "$out"

fail() {
  echo "image run: FAILED: $*" >&2
  podman logs --tail 60 kopek >&2 || true
  exit 1
}
check() { echo "image run: ok: $*"; }

# Polls Kopek's readiness probe on the published port until it answers 200, for at most 180 s.
await_ready() {
  local deadline=$(($(date +%s) + 180))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/actuator/health/readiness")" = 200 ]; do
    [ "$(podman inspect -f '{{.State.Running}}' kopek)" = true ] || fail "Kopek's container exited"
    [ "$(date +%s)" -lt "$deadline" ] || fail "not ready within 180 s"
    sleep 1
  done
}

start_kopek() {
  podman run -d --name kopek --network "$net" -p 127.0.0.1::8080 -v kopek-data:/var/lib/kopek \
    -e KOPEK_DEMO_API_KEY="$key" -e KOPEK_ADMIN_TOKEN="$admin" -e KOPEK_PSP_SIMULATOR_URL=http://simulator:9090 \
    "$kopek_image" > /dev/null
  base="http://$(podman port kopek 8080/tcp)"
  await_ready
}


podman network create "$net" > /dev/null
podman volume create kopek-data > /dev/null
podman run -d --name simulator --network "$net" -p 127.0.0.1::9090 "$simulator_image" > /dev/null
simulator="http://$(podman port simulator 9090/tcp)"
started=$(date +%s)
start_kopek
check "ready: readiness $(curl -s "$base/actuator/health/readiness"), liveness $(curl -s "$base/actuator/health/liveness") after $(($(date +%s) - started)) s"

[ "$(pay image-run-1 pm_ok)" = 201 ] || fail "payment: $(cat "$out/image-run-1.body")"
[ "$(field "$out/image-run-1.body" status)" = captured ] || fail "payment not captured: $(cat "$out/image-run-1.body")"
payment=$(field "$out/image-run-1.body" id)
check "payment $payment captured through the published port ($base)"

# Every process of the container (Kopek and its embedded PostgreSQL) runs as the image's user, none as root.
podman top kopek user huser pid args > "$out/processes"
[ "$(podman exec kopek id -u)" = 10001 ] || fail "podman exec runs as $(podman exec kopek id -u)"
awk 'NR > 1 && ($1 != "kopek" || $2 != "10001") { bad = 1 } END { exit bad }' "$out/processes" \
  || fail "a process runs as another user: $(cat "$out/processes")"
check "all $(($(wc -l < "$out/processes") - 1)) processes (java, the embedded PostgreSQL's) run as kopek, uid 10001"

# SIGTERM while a payment is at the PSP: pm_slow holds the charge 2.5 s at the simulator (below Kopek's 3 s read
# timeout). podman stop is sent once the simulator has the charge, and may wait 60 s before SIGKILL.
curl -s -o /dev/null -X POST "$simulator/_sim/config" -H 'Content-Type: application/json' \
  -d '{"slow_min_ms": 2500, "slow_max_ms": 2500}'
charges() { /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["charge_requests"])' < <(curl -s "$simulator/_sim/stats"); }
before=$(charges)
pay image-run-slow pm_slow > "$out/slow.status" &
in_flight=$!
deadline=$(($(date +%s) + 30))
until [ "$(charges)" -gt "$before" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "the slow payment never reached the simulator"
  sleep 0.2
done
podman stop -t 60 kopek > /dev/null
wait $in_flight || true
[ "$(cat "$out/slow.status")" = 201 ] || fail "the payment in flight at SIGTERM got $(cat "$out/slow.status")"
[ "$(field "$out/image-run-slow.body" status)" = captured ] || fail "in flight: $(cat "$out/image-run-slow.body")"
exit_code=$(podman inspect -f '{{.State.ExitCode}}' kopek)
[ "$exit_code" = 143 ] || fail "exit code $exit_code after SIGTERM (137 is SIGKILL: it did not stop in time)"
podman logs kopek > "$out/kopek.log" 2>&1
grep -q 'Graceful shutdown complete' "$out/kopek.log" || fail "no 'Graceful shutdown complete' in the log"
grep -q 'embedded PostgreSQL stopped' "$out/kopek.log" || fail "the embedded PostgreSQL was not stopped by Kopek"
check "SIGTERM: the payment in flight answered 201 captured, 'Graceful shutdown complete', exit code 143"

# A new container on the same volume: the data is there, the slow payment's key holds its answer (its lease
# was given up by finishing, not left to run out) and nothing had to be reclaimed.
podman rm kopek > /dev/null
start_kopek
[ "$(curl -s -o "$out/lookup.body" -w '%{http_code}' "$base/v1/payments/$payment" -H "Authorization: Bearer $key")" = 200 ] \
  || fail "payment $payment is gone after the restart"
[ "$(field "$out/lookup.body" status)" = captured ] || fail "after the restart: $(cat "$out/lookup.body")"
[ "$(pay image-run-slow pm_slow)" = 201 ] || fail "retry of the slow payment: $(cat "$out/image-run-slow.body")"
grep -qi '^Idempotent-Replayed: true' "$out/image-run-slow.headers" || fail "the retry was not a replay"
reclaims=$(curl -s "$base/actuator/prometheus" -H "Authorization: Bearer $admin" \
  | awk '/^kopek_idempotency_reclaims_total\{.*kind="payment"/ { print $2 }')
[ "$reclaims" = 0.0 ] || fail "kopek_idempotency_reclaims_total{kind=payment} is '$reclaims'"
check "restart on the same volume: $payment still captured, the slow payment's retry replayed, 0 reclaims"

podman stop -t 60 kopek simulator > /dev/null
podman rm kopek simulator > /dev/null
podman volume rm kopek-data > /dev/null
podman network rm "$net" > /dev/null
echo "image run: passed"
