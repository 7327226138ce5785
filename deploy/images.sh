#!/usr/bin/env bash
# Builds every image that deploy/test-image.sh and deploy/test-compose.sh run, once per run, into the run's own
# podman storage (deploy/podman-env.sh), with no registry: all of it comes from Debian's packages and Maven Central.
#
#   kopek-base:trixie-jre25   Debian's minimal root file system and a jlink JRE (deploy/base-image.sh)
#   kopek, kopek-simulator    Kopek's and the simulator's images, built by jib on that base (-Pimage), the names
#                             compose uses; ContainerImageTest checks Kopek's
#   postgres, apache/kafka,   stand-ins for the registry images compose names, under those names: PostgreSQL and
#   nginx                     nginx from Debian's packages, Kafka from its jars on the JRE base (deploy/images/)
#
# Root, mmdebstrap and podman (.ci/run installs them). DEBIAN_SUITE and DEBIAN_MIRROR as in base-image.sh.
set -euo pipefail
# shellcheck source=deploy/podman-env.sh
source "$(dirname "$0")/podman-env.sh"
cd "$repo"
suite=${DEBIAN_SUITE:-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
build="$work/build"
rm -rf "$build"
mkdir -p "$build/kafka/data"

# The image a service of deploy/compose.yaml names, as a registry would spell it (postgres:17 is
# docker.io/library/postgres:17), so that compose finds the local image and pulls nothing.
compose_image() {
  local name
  name=$(/usr/bin/python3 -c 'import sys, yaml
print(yaml.safe_load(open(sys.argv[1]))["services"][sys.argv[2]]["image"])' deploy/compose.yaml "$1")
  case $name in
    */*/* | *.*/* | localhost/*) echo "$name" ;;
    */*) echo "docker.io/$name" ;;
    *) echo "docker.io/library/$name" ;;
  esac
}
postgres_image=$(compose_image postgres)
kafka_image=$(compose_image kafka)
nginx_image=$(compose_image lb)
postgres_major=${postgres_image##*:}

# Waits for the background job $1 (a pid), showing its log $2 if it failed.
await() {
  wait "$1" || { echo "containers: $2 failed:" >&2; tail -40 "$2" >&2; return 1; }
}

# Everything that is mostly downloading, at once: the JRE base, the root file systems of PostgreSQL and nginx,
# and the broker's jars (the version is the tag compose names).
started=$(date +%s)
no_docs=(--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
  --dpkgopt='path-exclude=/usr/share/info/*')
deploy/base-image.sh "$build/kopek-base.tar" > "$build/base.log" 2>&1 &
base=$!
mmdebstrap --quiet --variant=minbase --mode=root "${no_docs[@]}" --include="postgresql-$postgres_major" \
  --customize-hook='rm -rf "$1"/etc/postgresql/* "$1"/var/lib/postgresql/*' \
  --customize-hook="copy-in deploy/images/postgres/entrypoint /usr/local/bin" \
  "$suite" "$build/postgres.tar" "$mirror" > "$build/postgres.log" 2>&1 &
postgres=$!
mmdebstrap --quiet --variant=minbase --mode=root "${no_docs[@]}" --include=nginx \
  --customize-hook='ln -sf /dev/stdout "$1"/var/log/nginx/access.log; ln -sf /dev/stderr "$1"/var/log/nginx/error.log' \
  "$suite" "$build/nginx.tar" "$mirror" > "$build/nginx.log" 2>&1 &
nginx=$!
./mvnw -q -B -f deploy/images/kafka/pom.xml dependency:copy-dependencies -Dkafka.version="${kafka_image##*:}" \
  -DoutputDirectory="$build/kafka/libs" > "$build/kafka.log" 2>&1 &
kafka_libs=$!
await $base "$build/base.log"
step_took "$started" "the JRE base (mmdebstrap, jlink)"

# Kopek's and the simulator's images need only the base: jib builds them while the rest is put together.
started_jib=$(date +%s)
./mvnw -q -B -Pimage -pl kopek-server,acquirer-simulator -am verify -Dkopek.image.base="tar://$build/kopek-base.tar" \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false > "$build/jib.log" 2>&1 &
jib=$!
podman load -q -i "$build/kopek-base.tar"
await $kafka_libs "$build/kafka.log"
cp -r deploy/images/kafka/bin "$build/kafka/"
podman build -q --build-arg BASE="localhost/kopek-base:$suite-jre25" -f deploy/images/kafka/Containerfile \
  -t "$kafka_image" "$build/kafka" > /dev/null
await $postgres "$build/postgres.log"
podman import -q \
  --change "ENV PATH=/usr/lib/postgresql/$postgres_major/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change 'ENV PGDATA=/var/lib/postgresql/data' --change 'ENV LANG=C.UTF-8' \
  --change 'ENTRYPOINT ["/usr/local/bin/entrypoint"]' --change 'CMD ["postgres"]' \
  --change 'VOLUME /var/lib/postgresql/data' --change 'EXPOSE 5432' --change 'STOPSIGNAL SIGINT' \
  "$build/postgres.tar" "$postgres_image" > /dev/null
await $nginx "$build/nginx.log"
podman import -q --change 'CMD ["nginx", "-g", "daemon off;"]' --change 'EXPOSE 80' --change 'STOPSIGNAL SIGQUIT' \
  "$build/nginx.tar" "$nginx_image" > /dev/null
step_took "$started" "the base and the stand-ins (postgres, kafka, nginx)"
await $jib "$build/jib.log"
podman load -q -i kopek-server/target/kopek-image.tar
podman load -q -i acquirer-simulator/target/kopek-simulator-image.tar
step_took "$started_jib" "Kopek's and the simulator's images (jib, ContainerImageTest)"
rm -f "$build"/*.tar
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}'
