#!/usr/bin/env bash
# Local stand-ins for the two base images docker/Dockerfile names, for machines that cannot
# pull them (ours: no registry access), so the unchanged Dockerfile builds here with podman:
#   debian:bookworm-slim  Debian's minbase from Debian's packages (mmdebstrap)
#   swift:6.3-bookworm    the same plus what swift needs to build, with this machine's
#                         toolchain mounted at build time (-v /opt/swift:/opt/swift:ro, see
#                         docker/image-test.sh) instead of copied: 3.3 GB less in every image.
# Each is made once and kept (podman's image store is the cache); FORCE=1 makes them again.
set -euo pipefail

have() { [ -z "${FORCE:-}" ] && podman image exists "$1"; }
# As Docker's slim images: no manuals, documentation (but copyright files) or translations.
# Merged /usr set up by mmdebstrap's hook, as Docker's images have it, rather than by the
# usrmerge package (which brings Perl, 46 MB).
slim=(--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias')
sources=(--components=main "bookworm" - "http://deb.debian.org/debian"
  "deb http://deb.debian.org/debian bookworm-updates main"
  "deb http://deb.debian.org/debian-security bookworm-security main")

# And as in Docker's Debian images, apt keeps no caches in the image (their docker-clean).
clean='printf "%s\n" "Dir::Cache::pkgcache \"\";" "Dir::Cache::srcpkgcache \"\";" \
  > "$1/etc/apt/apt.conf.d/docker-clean"; find "$1/var/cache/apt" -type f -delete'

if ! have docker.io/library/debian:bookworm-slim; then
  mmdebstrap --quiet --variant=minbase --format=tar "${slim[@]}" --customize-hook="$clean" "${sources[@]}" \
    | podman import --change 'CMD ["bash"]' - docker.io/library/debian:bookworm-slim
fi

if ! have docker.io/library/swift:6.3-bookworm; then
  # The official image's build dependencies (swiftlang/swift-docker, 6.3/debian/12).
  mmdebstrap --quiet --variant=minbase --format=tar "${slim[@]}" \
    --include=binutils,git,gnupg2,libc6-dev,libcurl4-openssl-dev,libedit2,libgcc-12-dev,libncurses-dev,libpython3-dev,libsqlite3-0,libstdc++-12-dev,libxml2-dev,libz3-dev,pkg-config,tzdata,zlib1g-dev,ca-certificates \
    --customize-hook='mkdir -p "$1/opt/swift"' \
    "${sources[@]}" \
    | podman import --change 'CMD ["bash"]' \
      --change 'ENV PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      - docker.io/library/swift:6.3-bookworm
fi
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'debian:bookworm-slim|swift:6.3-bookworm'
