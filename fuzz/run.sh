#!/usr/bin/env bash
# Runs the fuzz targets one after another, each for SECONDS (default 300), seeded by seed.sh,
# and prints one summary line per target. Needs the nightly toolchain and cargo-fuzz.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Each target's corpus grows in fuzz/corpus/<target>/ (ignored by git); crashes land in
# fuzz/artifacts/<target>/ and the log in fuzz/logs/<target>.log. A crash becomes a regression
# test by copying its input to test_data/fuzz/<target>/ (see docs/reliability.md).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
seconds=${1:-300}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(syntax format check edit_script schema schema_mutations check_package)
fi
[ -d seeds ] || ./seed.sh
mkdir -p logs
status=0
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    seed_dir=()
    [ -d "seeds/$target" ] && seed_dir=("seeds/$target")
    # Scripts (edits, schema mutations) are worth most at full length from the start, rather
    # than after libFuzzer's slow growth of the length limit.
    extra=()
    case $target in
        schema_mutations) extra=(-len_control=0 -max_len=256) ;;
        edit_script) extra=(-len_control=0 -max_len=4096) ;;
        *) extra=(-max_len=16384) ;;
    esac
    # -timeout: an input that takes longer than 10 s is reported as a hang.
    cargo +nightly fuzz run "$target" "corpus/$target" "${seed_dir[@]}" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 "${extra[@]}" \
        -dict=pcl.dict -print_final_stats=1 >"logs/$target.log" 2>&1
    code=$?
    [ $code -ne 0 ] && status=1
    last=$(grep -E '^#[0-9]+' "logs/$target.log" | tail -1)
    execs=$(grep -E '^stat::number_of_executed_units' "logs/$target.log" | awk '{print $2}')
    echo "$target: exit $code; ${execs:-?} executions; last status: ${last:-none}"
done
exit $status
