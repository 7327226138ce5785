#!/usr/bin/env bash
# A base image for Kopek's container images without a container registry: Debian's minimal root file system
# (mmdebstrap, from Debian's package mirror) plus a JRE made with jlink from the JDK 25 that builds Kopek, saved
# as an image tarball that jib takes as its base (and `podman load` or `docker load` reads):
#
#   sudo deploy/base-image.sh target/kopek-base.tar
#   ./mvnw -Pimage -pl kopek-server,acquirer-simulator -am package -DskipTests \
#       -Dkopek.image.base=tar://$PWD/target/kopek-base.tar
#
# Needs root and mmdebstrap (apt-get install mmdebstrap); about a minute. DEBIAN_SUITE (trixie) and DEBIAN_MIRROR
# choose the Debian release and mirror. Where a registry is reachable, the default base (eclipse-temurin:25-jre)
# needs none of this.
set -euo pipefail
out=$(realpath -m "${1:?usage: base-image.sh OUTPUT.tar}")
java_home=${JAVA_HOME:?JAVA_HOME must point at JDK 25}
suite=${DEBIAN_SUITE:-trixie}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/image"
# Every module but the development tools: Kopek, Kafka, Debezium and the simulator's HTTP server are all covered.
modules=$("$java_home/bin/java" --list-modules | sed 's/@.*//' \
  | grep -Ev '^jdk\.(jshell|jdeps|jlink|javadoc|compiler|jpackage|hotspot\.agent|jconsole|jdi|jdwp|editpad|internal\.(ed|le|opt|md)|jartool|jstatd|jsobject|accessibility|graal)' \
  | paste -sd,)
mmdebstrap --quiet --variant=minbase --mode=root \
  --customize-hook="'$java_home/bin/jlink' --add-modules '$modules' --strip-debug --no-man-pages \
      --no-header-files --compress=zip-6 --output \"\$1/opt/java\"" \
  --customize-hook='rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*' \
  "$suite" "$work/image/layer.tar" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >&2
diff_id=sha256:$(sha256sum "$work/image/layer.tar" | cut -d' ' -f1)
cat > "$work/image/config.json" <<JSON
{"architecture":"amd64","os":"linux",
 "config":{"Env":["PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","JAVA_HOME=/opt/java","LANG=C.UTF-8"]},
 "rootfs":{"type":"layers","diff_ids":["$diff_id"]},
 "history":[{"created_by":"deploy/base-image.sh: mmdebstrap --variant=minbase $suite, jlink of JDK 25 into /opt/java"}]}
JSON
echo "[{\"Config\":\"config.json\",\"RepoTags\":[\"kopek-base:$suite-jre25\"],\"Layers\":[\"layer.tar\"]}]" \
  > "$work/image/manifest.json"
tar -C "$work/image" -cf "$out" manifest.json config.json layer.tar
echo "$out" >&2
