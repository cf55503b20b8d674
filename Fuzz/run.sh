#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + AddressSanitizer) and runs each for a while.
#   bash Fuzz/run.sh [SECONDS] [TARGET...]     default: 60 s each, every target
# FUZZ_RUNS=N stops each target after N executions instead (with SECONDS as a cap).
# New inputs go to .build-fuzz/corpus/TARGET (the committed seeds in Fuzz/Corpus stay as
# they are); a finding is written to .build-fuzz/findings/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p ../.build-fuzz
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(apple android matcher http probe config loop)

# SwiftPM keeps a path dependency's list of source files in its build description and does
# not notice a file added to the server since: dropped, so the list is made again.
rm -f ../.build-fuzz/build/release/description.json
# -enable-testing: the targets reach the parsers' internal types (@testable import).
# lld: ld.gold fails on the sanitizer runtime's symbols.
if ! swift build -c release --scratch-path ../.build-fuzz/build \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld >../.build-fuzz/build.log 2>&1; then
  grep -E 'error' ../.build-fuzz/build.log >&2 || tail -20 ../.build-fuzz/build.log >&2
  exit 1
fi
binary=../.build-fuzz/build/release/aasa-fuzz

# Swift's own backtracer would race ASan's report; libFuzzer prints the stack.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
for target in "${targets[@]}"; do
  case $target in
    http | probe | loop) dictionary=Dictionaries/http.dict ;;
    *) dictionary=Dictionaries/json.dict ;;
  esac
  corpus=../.build-fuzz/corpus/$target
  findings=../.build-fuzz/findings/$target
  mkdir -p "$corpus" "$findings"
  echo "== $target: ${seconds} s"
  # max_len above the 128 KiB size guard and the HTTP limits, or the slow paths stay hidden;
  # rss_limit and timeout turn a memory blow-up or a super-linear input into a finding.
  "$binary" "$target" -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -max_len=140000 -len_control=200 -timeout=10 \
    -rss_limit_mb=4096 -dict="$dictionary" -artifact_prefix="$findings/" -print_final_stats=1 \
    "$corpus" "Corpus/$target" 2>&1 | grep -E '^(#[0-9]+ +(DONE|INITED)|stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' || true
  if [ -n "$(ls -A "$findings")" ]; then
    echo "$target: findings in .build-fuzz/findings/$target" >&2
    exit 1
  fi
done
