#!/usr/bin/env bash
# Brings up deploy/compose.yaml as it is with podman-compose (issue 27 §2) and checks it as a merchant would use it:
# every Kopek instance passes compose's own health check (Kopek's readiness probe), payments through nginx are
# served by both instances, an event reaches Kafka, a webhook reaches the merchant's endpoint, and after one Kopek
# container is killed the client's retry with the same key gets the stored answer from the other. Needs the
# images of deploy/images.sh; prints each check, fails at the first that does not hold, and takes the stack down.
set -euo pipefail
# shellcheck source=deploy/podman-env.sh
source "$(dirname "$0")/podman-env.sh"
cd "$repo"
key=sk_test_demo_0123456789abcdef
out="$work/compose-run"
mkdir -p "$out"
# A free loopback port for the load balancer (compose's default is 8080).
KOPEK_PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export KOPEK_PORT
base="http://127.0.0.1:$KOPEK_PORT"
compose=(podman-compose -p kopek -f deploy/compose.yaml)

container() { podman ps -aq --filter label=com.docker.compose.project=kopek --filter "label=com.docker.compose.service=$1"; }
fail() {
  echo "compose run: FAILED: $*" >&2
  for service in kopek-1 kopek-2 lb; do
    [ -n "$(container "$service")" ] || continue
    echo "--- $service" >&2
    podman logs --tail 30 "$(container "$service")" >&2 || true
  done
  exit 1
}
check() { echo "compose run: ok: $*"; }
# Runs "$@" every second until it succeeds, for at most $1 seconds (after the what-for text $2).
await() {
  local deadline=$(($(date +%s) + $1)) what=$2
  shift 2
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$what"
    sleep 1
  done
}
healthy() { podman healthcheck run "$(container "$1")" > /dev/null 2>&1; }

started=$(date +%s)
"${compose[@]}" up -d > "$out/up.log" 2>&1 || { cat "$out/up.log"; fail "podman-compose up"; }
for service in postgres kafka simulator kopek-1 kopek-2 lb; do
  [ -n "$(container "$service")" ] || { grep -B1 -A3 Error "$out/up.log" >&2; fail "no container for $service"; }
done
for service in postgres kopek-1 kopek-2; do
  await 180 "$service is not healthy" healthy "$service"
done
await 30 "the load balancer does not answer" curl -sf -o /dev/null "$base/actuator/health/readiness"
step_took "$started" "compose up (until every health check passes)"
check "postgres, kopek-1 and kopek-2 pass their compose health checks (pg_isready, Kopek's readiness probe)"
for probe in liveness readiness; do
  [ "$(curl -s "$base/actuator/health/$probe")" = '{"status":"UP"}' ] || fail "$probe through nginx"
done
check "liveness and readiness UP through nginx on $base"

# The merchant's webhook endpoint, in each Kopek container's network namespace (deploy/webhook-receiver.conf).
nginx_image=$(podman inspect -f '{{.ImageName}}' "$(container lb)")
for n in 1 2; do
  podman run -d --name "webhook-receiver-$n" --network "container:$(container "kopek-$n")" \
    -v "$repo/deploy/webhook-receiver.conf:/etc/nginx/webhook-receiver.conf:ro" "$nginx_image" \
    nginx -c /etc/nginx/webhook-receiver.conf -g 'daemon off;' > /dev/null
done
[ "$(curl -s -o "$out/endpoint.body" -w '%{http_code}' -X POST "$base/v1/webhook-endpoints" \
  -H "Authorization: Bearer $key" -H "Idempotency-Key: compose-run-endpoint" -H "Content-Type: application/json" \
  -d '{"url": "http://127.0.0.1:9099/hooks", "event_types": ["*"]}')" = 201 ] \
  || fail "webhook endpoint: $(cat "$out/endpoint.body")"

# Kafka's console consumer reads the topic from the start while the payments are made.
podman exec "$(container kafka)" timeout 120 kafka-console-consumer.sh --bootstrap-server kafka:9092 \
  --topic kopek.events --from-beginning > "$out/kafka.events" 2> "$out/kafka.log" &
consumer=$!

for n in 1 2 3 4 5 6; do
  [ "$(pay "compose-run-$n" pm_ok)" = 201 ] || fail "payment $n: $(cat "$out/compose-run-$n.body")"
  [ "$(field "$out/compose-run-$n.body" status)" = captured ] || fail "payment $n: $(cat "$out/compose-run-$n.body")"
done
payment=$(field "$out/compose-run-1.body" id)
# nginx logs the upstream of each request (deploy/nginx.conf); each upstream address is one Kopek container's.
podman logs "$(container lb)" 2> /dev/null | grep '"POST /v1/payments' > "$out/lb.log" || true
served=""
for n in 1 2; do
  address=$(podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container "kopek-$n")")
  count=$(grep -c "upstream=$address:8080 upstream_status=201" "$out/lb.log" || true)
  [ "$count" -gt 0 ] || fail "kopek-$n ($address) served none of the payments: $(cat "$out/lb.log")"
  served="$served kopek-$n ($address) $count"
done
check "6 payments captured through nginx, served by$served"

has_event() { grep -q "$payment" "$out/kafka.events"; }
await 60 "no event of $payment on kopek.events" has_event
check "Kafka: $(grep -c "$payment" "$out/kafka.events") events of $payment on topic kopek.events, e.g. $(grep -m1 "$payment" "$out/kafka.events" | grep -o '"type":"[a-z_]*\.[a-z_.]*"' | head -1)"
kill $consumer 2> /dev/null || true

delivered() { podman logs webhook-receiver-1 webhook-receiver-2 2> /dev/null | grep "$payment" | grep -q 'v1='; }
await 60 "no webhook of $payment reached the receivers" delivered
check "webhook: $(podman logs webhook-receiver-1 webhook-receiver-2 2> /dev/null | grep -c "$payment") signed deliveries of $payment reached the merchant's endpoint"

# Kill the instance that answered the first payment; the client's retry with the same key goes to the other.
first=$(head -1 "$out/lb.log" | grep -o 'upstream=[0-9.]*' | cut -d= -f2)
for n in 1 2; do
  [ "$(podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(container "kopek-$n")")" = "$first" ] && victim=$n
done
cp "$out/compose-run-1.body" "$out/first-answer.body"
podman kill "$(container "kopek-$victim")" > /dev/null
[ "$(pay compose-run-1 pm_ok)" = 201 ] || fail "retry after the kill: $(cat "$out/compose-run-1.body")"
grep -qi '^Idempotent-Replayed: true' "$out/compose-run-1.headers" || fail "the retry after the kill was no replay"
cmp -s "$out/first-answer.body" "$out/compose-run-1.body" || fail "the replay differs from the first answer"
check "kopek-$victim killed; the retry of the first payment's key answered the stored answer (Idempotent-Replayed: true, same bytes)"

started=$(date +%s)
podman rm -f webhook-receiver-1 webhook-receiver-2 > /dev/null
"${compose[@]}" down -v > "$out/down.log" 2>&1 || { cat "$out/down.log"; fail "podman-compose down"; }
podman network rm -f kopek_default > /dev/null 2>&1 || true
step_took "$started" "compose down"
echo "compose run: passed"
