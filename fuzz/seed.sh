#!/usr/bin/env bash
# Fills fuzz/seeds/<target>/ with seed inputs: the repository's test data and, when the shared
# corpora are present ($PCL_SHARED_DIR, or a sibling `shared/` of the repository), their HCL
# files, PCL programs and small schemas. Seeds are copies (renamed by content hash), so that
# libFuzzer can read them as one flat directory per target.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
shared=${PCL_SHARED_DIR:-$(dirname "$repo")/shared}
seeds=$here/seeds
rm -rf "$seeds"

# copy TARGET FILE...: each file into seeds/TARGET/, named by its hash.
copy() {
    local target=$1
    shift
    mkdir -p "$seeds/$target"
    for file in "$@"; do
        [ -f "$file" ] || continue
        cp "$file" "$seeds/$target/$(sha1sum "$file" | cut -c1-16)"
    done
}

mapfile -t programs < <(find "$repo/test_data/programs" "$repo/test_data/infer" -name '*.pp' | sort)
mapfile -t parser < <(find "$repo/test_data/parser" "$repo/test_data/fmt/cases" -type f \( -name '*.pp' -o -name '*.hcl' -o -name '*.input' \) | sort)
mapfile -t schemas < <(find "$repo/test_data/schemas" -name '*.json' -size -200k | sort)
if [ -d "$shared/corpus" ]; then
    mapfile -t -O "${#programs[@]}" programs < <(find "$shared/corpus/pulumi/programs" -name '*.pp' -size -16k | sort)
    # Every 8th HCL file: enough variety without making each pass over the seeds long.
    mapfile -t -O "${#parser[@]}" parser < <(find "$shared/corpus/hcl" "$shared/corpus/hcl-tricky" -type f -size -16k | sort | awk 'NR % 8 == 1')
    mapfile -t -O "${#schemas[@]}" schemas < <(find "$shared/corpus/pulumi/schemas" -name '*.json' -size -64k | sort)
else
    echo "seed.sh: no shared corpora at $shared; seeding from test_data/ only" >&2
fi

copy syntax "${parser[@]}" "${programs[@]}"
copy format "${parser[@]}" "${programs[@]}"
copy check "${programs[@]}"
copy edit_script "${programs[@]}"
copy schema "${schemas[@]}"
# check_package takes a schema too, and frees every type it made: schemas with recursive
# types (test_data/schemas/registry's Tree and Forest, the corpus's providers) are the seeds
# that matter.
copy check_package "${schemas[@]}"
# Mutation scripts: a few bytes are enough to start from.
mkdir -p "$seeds/schema_mutations"
printf '\x08\x00\x10' > "$seeds/schema_mutations/ref"
printf '\x0d\x00\x20\x0f\x01\x00' > "$seeds/schema_mutations/nest"
for target in syntax format check edit_script schema schema_mutations check_package; do
    echo "$target: $(ls "$seeds/$target" | wc -l) seeds"
done
