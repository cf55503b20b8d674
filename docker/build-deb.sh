#!/usr/bin/env bash
# make deb: the Debian package, with dpkg-deb alone (no debhelper): the release binary with
# Swift's standard library linked in, the units (service and socket), the default settings
# (a conffile), the example site, man pages and bash, zsh and fish completions from
# swift-argument-parser.
#   bash docker/build-deb.sh [OUT_DIR]   → OUT_DIR/aasa-server_VERSION_ARCH.deb (default .build/deb)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/deb}
swift=${SWIFT:-swift}

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/AASASystem/Version.swift)
arch=$(dpkg --print-architecture)
$swift build -c release --static-swift-stdlib --product aasa-server
binary=$($swift build -c release --static-swift-stdlib --show-bin-path)/aasa-server

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"
install -D -m 755 "$binary" "$root/usr/bin/aasa-server"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/aasa-server"
install -D -m 644 docker/aasa-server.service "$root/lib/systemd/system/aasa-server.service"
install -D -m 644 docker/aasa-server.socket "$root/lib/systemd/system/aasa-server.socket"
install -D -m 644 docker/deb/aasa-server.json "$root/etc/aasa-server/aasa-server.json"
install -d -m 755 "$root/usr/share/aasa-server/examples/sites"
cp -R Config/sites/example.com "$root/usr/share/aasa-server/examples/sites/"
find "$root/usr/share/aasa-server" -type d -exec chmod 755 {} + && find "$root/usr/share/aasa-server" -type f -exec chmod 644 {} +
bash docker/install-docs.sh "$root/usr/bin/aasa-server" "$root/usr/share"
install -D -m 644 docker/deb/copyright "$root/usr/share/doc/aasa-server/copyright"
printf 'aasa-server (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- aasa-server maintainers <maintainers@users.noreply.a-seed-b6cff987.example>  %s\n' \
  "$version" "$version" "$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")" \
  | gzip -9n > "$root/usr/share/doc/aasa-server/changelog.gz"
chmod 644 "$root/usr/share/doc/aasa-server/changelog.gz"

# Depends: the shared libraries the binary links, as their packages' shlibs files state them
# (what dpkg-shlibdeps writes, deb-shlibs(5)).
install -d "$root/DEBIAN"
depends=$(objdump -p "$root/usr/bin/aasa-server" | awk '/NEEDED/ {print $2}' | while read -r soname; do
  name=${soname%%.so*}; version=${soname##*.so.}
  path=$(ldconfig -p | awk -v l="$soname" '$1 == l {print $NF; exit}')
  package=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1 | cut -d: -f1)
  [ -n "$package" ] || package=$(dpkg -S "$path" | head -n1 | cut -d: -f1)
  line=$(awk -v n="$name" -v v="$version" '$1 == n && $2 == v {$1 = ""; $2 = ""; print; exit}' \
    /var/lib/dpkg/info/"$package"*.shlibs 2>/dev/null | sed 's/^ *//')
  echo "${line:-$package}"
done | sort -u | paste -sd, | sed 's/,/, /g')
# And the data it reads at run time: the Public Suffix List (docs/ARCHITECTURE.md, "The Public
# Suffix List"), /usr/share/publicsuffix/public_suffix_list.dat.
depends="$depends, publicsuffix"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
  docker/deb/control.in > "$root/DEBIAN/control"
echo /etc/aasa-server/aasa-server.json > "$root/DEBIAN/conffiles"
install -m 755 docker/deb/postinst docker/deb/prerm docker/deb/postrm "$root/DEBIAN/"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb="$out/aasa-server_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb: $(du -h "$deb" | cut -f1) ($(stat -c %s "$deb") bytes); Depends: $depends"
# Debian's package checker: any error fails (the warnings it gives are listed and justified
# in docs/deployment.md, "Install").
if command -v lintian >/dev/null; then
  lintian --fail-on error "$deb" || exit 1
fi
