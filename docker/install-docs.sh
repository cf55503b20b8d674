#!/usr/bin/env bash
# Man pages (swift-argument-parser's generate-manual plugin, one page per subcommand) and the
# bash, zsh and fish completions (the binary's --generate-completion-script) under SHARE_DIR,
# for the package (docker/build-deb.sh) and `make install`.
#   bash docker/install-docs.sh BINARY SHARE_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
share=$2
swift=${SWIFT:-swift}

# The plugin builds the package (debug: the build `make build` and the tests already made),
# then renders the binary's --experimental-dump-help as mdoc.
$swift package plugin --allow-writing-to-package-directory generate-manual --configuration debug --multi-page \
  --authors "the aasa-server authors" --section 1 >/dev/null
pages=$(find .build/plugins -path '*GenerateManual*' -name 'aasa-server*.1' | grep -v '/destination/' || true)
[ -n "$pages" ] || { echo "generate-manual made no page" >&2; exit 1; }
install -d -m 755 "$share/man/man1"
# Pages named as git's are (git-commit(1) for `git commit`): aasa-server-serve(1) with
# "aasa-server-serve" in NAME, so man, apropos and whatis find each one, and "aasa-server
# serve" in SYNOPSIS as it is typed; the help subcommand gets no page of its own.
for page in $pages; do
  name=$(basename "$page" .1)
  [ "$name" != aasa-server.help ] || continue
  command=${name#aasa-server.}
  awk -v command="$command" '
    /^\.Xr aasa-server\.help / { next }
    { gsub(/aasa-server\./, "aasa-server-"); gsub(/AASA-SERVER\./, "AASA-SERVER-") }
    /^\.Nm "aasa-server / && !named { print ".Nm aasa-server-" command; named = 1; next }
    /^\.Sh SYNOPSIS/ { synopsis = 1 }
    synopsis && /^\.Nm$/ && name != "aasa-server" { print ".Nm \"aasa-server " command "\""; synopsis = 0; next }
    { print }' name="$name" "$page" | gzip -9n > "$share/man/man1/${name/aasa-server./aasa-server-}.1.gz"
done
chmod 644 "$share/man/man1/"*.gz

install -d -m 755 "$share/bash-completion/completions" "$share/zsh/vendor-completions" \
  "$share/fish/vendor_completions.d"
# bash-completion sources the file: no #! line (Debian's bash-completion policy).
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$share/bash-completion/completions/aasa-server"
"$binary" --generate-completion-script zsh > "$share/zsh/vendor-completions/_aasa-server"
"$binary" --generate-completion-script fish > "$share/fish/vendor_completions.d/aasa-server.fish"
chmod 644 "$share/bash-completion/completions/aasa-server" "$share/zsh/vendor-completions/_aasa-server" \
  "$share/fish/vendor_completions.d/aasa-server.fish"
