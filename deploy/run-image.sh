#!/usr/bin/env bash
# Runs Kopek's image without a container engine, to try it where there is none (as root): unpacks the layers of
# jib's tarball into a folder, then starts the image's entrypoint with the image's environment, user and working
# folder, chrooted, in a new network namespace that has only loopback — so it listens on 0.0.0.0:8080 as in a
# container, seen by nothing else. It asks for readiness and liveness, makes one payment, prints who runs the
# processes, and stops. A container engine would give the image /etc/hosts and /proc; this script does too. The
# image is the production artifact and holds no simulator: the acquirer simulator's jar (SIMULATOR_JAR, built by the
# image's own command line) runs beside it in the namespace, with the host's java, as its PSP.
#
#   deploy/run-image.sh kopek-server/target/kopek-image.tar
set -euo pipefail
tar_file=$(realpath "${1:?usage: run-image.sh IMAGE.tar}")
simulator_jar=$(realpath "${SIMULATOR_JAR:-$(dirname "$0")/../acquirer-simulator/target/acquirer-simulator-0.1.0-SNAPSHOT-exec.jar}")
work=$(mktemp -d)
root="$work/root"
mkdir -p "$root" "$work/image"
tar -C "$work/image" -xf "$tar_file"
python3 - "$work" > "$work/run.env" <<'PY'
import json, shlex, subprocess, sys
work = sys.argv[1]
manifest = json.load(open(f"{work}/image/manifest.json"))[0]
for layer in manifest["Layers"]:
    subprocess.check_call(["tar", "--numeric-owner", "-C", f"{work}/root", "-xf", f"{work}/image/{layer}"],
                          stderr=subprocess.DEVNULL)
config = json.load(open(f"{work}/image/{manifest['Config']}"))["config"]
print("USER=" + shlex.quote(config["User"]))
print("WORKDIR=" + shlex.quote(config.get("WorkingDir", "/")))
print("ENTRY=(" + " ".join(shlex.quote(a) for a in config["Entrypoint"]) + ")")
print("ENVS=(" + " ".join(shlex.quote(e) for e in config["Env"]) + ")")
PY
printf '127.0.0.1 localhost\n::1 localhost\n' > "$root/etc/hosts"
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$work"' EXIT
export ROOT="$root" RUN_ENV="$work/run.env" LOG="$work/kopek.log" SIMULATOR_JAR="$simulator_jar"
unshare -n bash -c '
  set -u
  ip link set lo up
  source "$RUN_ENV"
  java -jar "$SIMULATOR_JAR" --port 9090 > "$LOG.simulator" 2>&1 &
  simulator=$!
  chroot --userspec="$USER" "$ROOT" /usr/bin/env -i "${ENVS[@]}" KOPEK_DEMO_API_KEY=sk_test_demo_0123456789abcdef \
      KOPEK_PSP_SIMULATOR_URL=http://127.0.0.1:9090 \
      /bin/sh -c "cd $WORKDIR && exec \"\$@\"" sh "${ENTRY[@]}" > "$LOG" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    curl -s -o /dev/null http://127.0.0.1:8080/actuator/health/readiness && break
    kill -0 $pid 2>/dev/null || { tail -40 "$LOG"; exit 1; }
    sleep 1
  done
  echo "readiness: $(curl -s http://127.0.0.1:8080/actuator/health/readiness)"
  echo "liveness:  $(curl -s http://127.0.0.1:8080/actuator/health/liveness)"
  echo "payment:   $(curl -s -X POST http://127.0.0.1:8080/v1/payments \
      -H "Authorization: Bearer sk_test_demo_0123456789abcdef" -H "Idempotency-Key: run-image-1" \
      -H "Content-Type: application/json" \
      -d "{\"reference\":\"run-image-1\",\"amount\":1000,\"currency\":\"RUB\",\"payment_method\":\"pm_ok\"}")"
  echo "kopek runs as uid $(ps -o uid= -p $pid | tr -d " ")"
  echo "embedded postgres runs as uid $(ps -eo uid=,args= | awk "/[p]ostgres -D \/var\/lib\/kopek/ {print \$1}" | sort -u | paste -sd,)"
  kill $pid $simulator
  wait $pid $simulator || true
'
