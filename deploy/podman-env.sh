# Sourced by deploy/images.sh, test-image.sh, test-compose.sh and ci-containers.sh: points podman at a folder of this
# run (KOPEK_CONTAINERS_WORK, default target/containers) for its images, containers, volumes and networks, so a run
# starts from nothing, leaves nothing behind once torn down, and touches no other podman user's storage. The
# checks' HTTP client (pay, field) is at the end.
#
# The settings podman needs on these machines (issue 27): runc, as Debian's crun refuses their hybrid cgroups;
# cgroupfs, as there is no systemd; file events; explicit ulimits, as podman's defaults ask for more than the
# machine allows (here: this shell's own hard limits, and no more processes than pid_max, above which runc is
# refused here); netavark, whose aardvark-dns lets containers find each other by service name.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${KOPEK_CONTAINERS_WORK:-$repo/target/containers}
mkdir -p "$work/podman"
export CONTAINERS_CONF="$work/podman/containers.conf"
export CONTAINERS_STORAGE_CONF="$work/podman/storage.conf"
if [ ! -f "$CONTAINERS_CONF" ]; then
  nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
  [ "$nofile" != unlimited ] || nofile=1048576
  pid_max=$(cat /proc/sys/kernel/pid_max)
  [ "$nproc" != unlimited ] && [ "$nproc" -le "$pid_max" ] || nproc=$pid_max
  cat > "$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$work/podman/tmp"

[network]
network_backend = "netavark"
network_config_dir = "$work/podman/networks"
CONF
  cat > "$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "overlay"
graphroot = "$work/podman/storage"
runroot = "$work/podman/run"
CONF
fi

# Prints how long the step that started at $1 (seconds since the epoch) took, under the name $2.
step_took() {
  echo "containers: $2 took $(($(date +%s) - $1)) s" | tee -a "$work/timings.txt"
}

# The checks' client (test-image.sh, test-compose.sh): POST /v1/payments to $base with the demo key $key, with
# Idempotency-Key $1 and payment method $2; prints the status, and keeps headers and body in $out/$1.
pay() {
  curl -s -D "$out/$1.headers" -o "$out/$1.body" -w '%{http_code}' -X POST "$base/v1/payments" \
    -H "Authorization: Bearer $key" -H "Idempotency-Key: $1" -H "Content-Type: application/json" \
    -d "{\"reference\":\"$1\",\"amount\":1000,\"currency\":\"RUB\",\"payment_method\":\"$2\"}"
}

# Field $2 of the JSON object in file $1.
field() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }
