#!/usr/bin/env bash
# Regenerates test_data/fmt/oracle.tsv from hclwrite.Format, and compares `pcl fmt` with it byte for
# byte. Needs the shared corpora and Go (the anchors' build script installs Debian's hcl v2).
# Usage: test_data/fmt/make-oracle.sh [SHARED_DIR]   (default: $PCL_SHARED_DIR, else ../shared)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=${1:-${PCL_SHARED_DIR:-$repo/../shared}}
shared=$(cd "$shared" && pwd)
build=${PCL_ANCHORS_DIR:-/tmp/pcl-anchors}
[ -x "$build/go-hclfmt" ] || bash "$shared/anchors/build.sh" "$build"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$shared/corpus/hcl" && awk -F'\t' 'NR > 1 && $2 == "ok" { print $1 }' EXPECTED.tsv > "$out/hcl.list" \
  && "$build/go-hclfmt" -iters 1 -out "$out/hcl" "$out/hcl.list")
(cd "$shared/corpus/hcl-tricky" && awk -F'\t' 'NR > 1 && $2 == "ok" { print $1 }' EXPECTED.tsv > "$out/tricky.list" \
  && "$build/go-hclfmt" -iters 1 -out "$out/hcl-tricky" "$out/tricky.list")
(cd "$shared/corpus/pulumi" && find programs -name '*.pp' | sort > "$out/pulumi.list" \
  && "$build/go-hclfmt" -iters 1 -out "$out/pulumi" "$out/pulumi.list")
cd "$repo"
PCL_SHARED_DIR="$shared" PCL_FMT_ORACLE_DIR="$out" UPDATE_EXPECT=1 \
  cargo test -q -p pcl-fmt --test corpus -- --nocapture
