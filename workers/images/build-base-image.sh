#!/usr/bin/env bash
# Builds the Python base image offline: debootstrap a minimal Debian bookworm with
# python3, pytest, git and patch, then `docker import` it. No registry is needed, so
# air-gapped users and CI can build every demo environment. Users with a registry can
# set BASE_IMAGE=python:3.11-slim (with pytest and git) and skip this script.
#
# Idempotent: exits early when the image already exists (set FORCE=1 to rebuild).
set -euo pipefail

BASE_IMAGE="${BASE_IMAGE:-swe-curator/python-base:bookworm}"
SUITE="${BASE_IMAGE_SUITE:-bookworm}"
PACKAGES="${BASE_IMAGE_PACKAGES:-python3,python3-pytest,git,patch}"
MIRROR="${DEBIAN_MIRROR:-}"

if ! command -v docker >/dev/null 2>&1; then
  echo "docker CLI not found: install docker.io (apt-get install -y docker.io)" >&2
  exit 1
fi
if ! docker info >/dev/null 2>&1; then
  echo "Docker engine not reachable (DOCKER_HOST=${DOCKER_HOST:-unix:///var/run/docker.sock}); start dockerd first" >&2
  exit 1
fi
# Tests run as this user, never as root; the label tells the worker its name.
TEST_USER="curator"
TEST_USER_LABEL="io.swe-curator.test-user"

# Adds the non-root test user as a layer on top of the image (offline: no network needed).
add_test_user() {
  local dir
  dir="$(mktemp -d /tmp/swe-curator-user.XXXXXX)"
  printf 'FROM %s\nRUN useradd --create-home --uid 1000 --shell /bin/bash %s\nLABEL %s=%s\n' \
    "$BASE_IMAGE" "$TEST_USER" "$TEST_USER_LABEL" "$TEST_USER" >"$dir/Dockerfile"
  DOCKER_BUILDKIT=0 docker build --network none -q -t "$BASE_IMAGE" "$dir" >/dev/null
  rm -rf "$dir"
}

if [ "${FORCE:-0}" != "1" ] && docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  if [ -n "$(docker image inspect --format "{{ index .Config.Labels \"$TEST_USER_LABEL\" }}" "$BASE_IMAGE" 2>/dev/null)" ]; then
    echo "Base image $BASE_IMAGE already exists; skipping (FORCE=1 to rebuild)"
    exit 0
  fi
  # an image from before the test user existed: add the user rather than bootstrap again
  echo "Base image $BASE_IMAGE has no non-root test user; adding $TEST_USER"
  add_test_user
  docker run --rm --network none --user "$TEST_USER" "$BASE_IMAGE" sh -c 'test "$(id -u)" = 1000'
  echo "Added $TEST_USER to $BASE_IMAGE"
  exit 0
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "debootstrap not found: install it (apt-get install -y debootstrap)" >&2
  exit 1
fi
if [ "$(id -u)" != "0" ]; then
  echo "debootstrap needs root" >&2
  exit 1
fi

ROOTFS="$(mktemp -d /tmp/swe-curator-rootfs.XXXXXX)"
cleanup() { rm -rf "$ROOTFS"; }
trap cleanup EXIT

echo "Bootstrapping $SUITE with $PACKAGES into $ROOTFS…"
# shellcheck disable=SC2086
debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$ROOTFS" $MIRROR

# Keep the image small and quiet: no apt lists, no caches.
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/archives/*.deb

echo "Importing as $BASE_IMAGE…"
tar -C "$ROOTFS" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  - "$BASE_IMAGE"
add_test_user
docker run --rm --network none --user "$TEST_USER" "$BASE_IMAGE" python3 -m pytest --version
echo "Built $BASE_IMAGE"
