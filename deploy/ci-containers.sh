#!/usr/bin/env bash
# CI's container step (.ci/run, docs/containers.md): builds every image once (deploy/images.sh), runs Kopek's image
# (deploy/test-image.sh) and deploy/compose.yaml (deploy/test-compose.sh), then removes everything the run made —
# containers, volumes, networks, images and the podman storage itself — whether the checks passed or not. Prints
# the time of each step; about 4 minutes on 2 cores. Root, with podman, podman-compose, runc, netavark,
# aardvark-dns and mmdebstrap installed (.ci/run installs them when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=deploy/podman-env.sh
source deploy/podman-env.sh

teardown() {
  local started
  started=$(date +%s)
  podman system reset --force > /dev/null 2>&1 || true
  rm -rf "$work/podman" "$work/build"
  step_took "$started" "teardown (podman system reset of this run's storage)"
}

# Whatever an interrupted run left in this folder goes first: nothing is reused from one run to the next.
podman system reset --force > /dev/null 2>&1 || true
rm -rf "$work"
source deploy/podman-env.sh
trap teardown EXIT
started=$(date +%s)
deploy/images.sh
step_took "$started" "images (all of deploy/images.sh)"
started=$(date +%s)
deploy/test-image.sh
step_took "$started" "image run"
started=$(date +%s)
deploy/test-compose.sh
step_took "$started" "compose run (up, checks, down)"
