#!/usr/bin/env bash
# Runs every fuzz target for 10 minutes, one at a time, single job, nice'd:
#   cargo +nightly fuzz build -O -a && bash fuzz/run_all.sh [target ...]
# Every target is each file of fuzz_targets/, so a new one is never left
# out. The corpus grows in fuzz/corpus/<target> (not committed) from the
# committed seeds in fuzz/seeds/<target>; crashes land in
# fuzz/artifacts/<target>/. logs/schedule.txt records each fuzzer's exit
# status; the script exits with 1 if any fuzzer failed.
cd "$(dirname "$0")"
bin=target/x86_64-unknown-linux-gnu/release
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for file in fuzz_targets/*.rs; do
        targets+=("$(basename "$file" .rs)")
    done
fi
failed=0
for t in "${targets[@]}"; do
    mkdir -p corpus/$t artifacts/$t logs
    echo "$(date -u +%T) start $t" >> logs/schedule.txt
    RAYON_NUM_THREADS=1 nice -n 10 "$bin/$t" -max_total_time="${FUZZ_SECONDS:-600}" \
        -jobs=1 -workers=1 -print_final_stats=1 -artifact_prefix=artifacts/$t/ \
        corpus/$t seeds/$t > logs/$t.log 2>&1
    rc=$?
    [ $rc -eq 0 ] || failed=1
    # With -jobs=1 libFuzzer runs one child that logs to fuzz-0.log.
    [ -f fuzz-0.log ] && mv fuzz-0.log logs/$t.child.log
    echo "$(date -u +%T) end $t rc=$rc" >> logs/schedule.txt
done
exit $failed
