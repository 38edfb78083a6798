#!/usr/bin/env bash
# Starts a Docker engine for CI (or a fresh machine) the way MACHINE-NOTES / DEVELOPERS.md
# describe — overlay2, no iptables, no bridge: every build and container uses network
# "none" — waits until it answers, then builds the offline Python base image.
# Safe to run twice: an engine that already answers is reused, an existing image kept.
set -euo pipefail
cd "$(dirname "$0")/.."

LOG="${DOCKERD_LOG:-/tmp/dockerd.log}"

if docker info >/dev/null 2>&1; then
  echo "[docker] engine already running ($(docker version --format '{{.Server.Version}}'))"
else
  command -v dockerd >/dev/null || { echo "[docker] dockerd not found: apt-get install -y docker.io" >&2; exit 1; }
  echo "[docker] starting dockerd (log: $LOG)"
  # setsid: the engine outlives this script and is not killed with its process group
  setsid dockerd --storage-driver=overlay2 --iptables=false --ip6tables=false --bridge=none >"$LOG" 2>&1 < /dev/null &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    echo "[docker] dockerd did not answer within 60 s; its log:" >&2
    tail -n 40 "$LOG" >&2 || true
    exit 1
  fi
  echo "[docker] engine up ($(docker version --format '{{.Server.Version}}'), storage $(docker info --format '{{.Driver}}'))"
fi

bash workers/images/build-base-image.sh
