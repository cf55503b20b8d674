#!/usr/bin/env bash
# Creates a local development CA and certificates in the layout serve reads (certbot's):
# DIR/<name>/fullchain.pem + privkey.pem, one folder per NAME (a wildcard `*.staging.example.com`
# goes to the folder `staging.example.com`); without names, those of the example sites in
# Config/sites. Keys stay out of git (.gitignore) and are 0600. Existing certificates valid
# for 14 more days are kept.
#
#   bash certs/make-dev-certs.sh [DIR [NAME...]]
set -euo pipefail
DIR=${1:-$(dirname "$0")}
shift || true
CA_DIR="$DIR/dev-ca"
mkdir -p "$CA_DIR"

if [ ! -f "$CA_DIR/ca.pem" ] || ! openssl x509 -checkend 1209600 -noout -in "$CA_DIR/ca.pem" >/dev/null; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 \
    -subj "/CN=aasa-server development CA" -keyout "$CA_DIR/ca-key.pem" -out "$CA_DIR/ca.pem" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  echo "created $CA_DIR/ca.pem (trust it with curl --cacert $CA_DIR/ca.pem)"
fi

issue() { # folder, names...
  local folder="$DIR/$1"; shift
  if [ -f "$folder/fullchain.pem" ] && openssl x509 -checkend 1209600 -noout -in "$folder/fullchain.pem" >/dev/null 2>&1; then
    return
  fi
  mkdir -p "$folder"
  local san
  san=$(printf 'DNS:%s,' "$@"); san=${san%,}
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$1" \
    -keyout "$folder/privkey.pem" -out "$folder/request.csr" 2>/dev/null
  openssl x509 -req -in "$folder/request.csr" -CA "$CA_DIR/ca.pem" -CAkey "$CA_DIR/ca-key.pem" -CAcreateserial \
    -days 90 -out "$folder/cert.pem" \
    -extfile <(printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' "$san") 2>/dev/null
  cat "$folder/cert.pem" "$CA_DIR/ca.pem" > "$folder/fullchain.pem"
  rm -f "$folder/request.csr"
  chmod 600 "$folder/privkey.pem"
  echo "created $folder/fullchain.pem for $*"
}

if [ $# -gt 0 ]; then
  for name in "$@"; do
    case $name in
      */* | .* | "") echo "not a host name: $name" >&2; exit 2 ;;
    esac
    issue "${name#\*.}" "$name"
  done
  exit 0
fi
issue example.com example.com www.example.com
issue legacy.example.com legacy.example.com
issue staging.example.com "*.staging.example.com"
