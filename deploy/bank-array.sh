#!/usr/bin/env bash
# Generate a bank's tests and build it as Slurm job arrays: task i of the
# first array runs `tests gen --shard i/N`, task i of the second (once every
# test is written) `build --shard i/N`, then a dependent job merges the build
# shards into DIST (`flowbench build merge`). The merged DIST is byte for byte
# the one unsharded `flowbench build` writes (tests/integration/build_shards.rs:
# merged_shards_are_byte_identical_to_one_unsharded_build).
#
#   deploy/bank-array.sh BANK OUT_DIR [N]
#
# BANK (problem directories) and OUT_DIR must be on a filesystem every node
# shares: `tests gen` writes each problem's tests.jsonl into its own
# directory, so its shards need no merge. Every shard must run the same
# flowbench binary on the same BANK path (the merge refuses anything else).
# Exit code 1 of a shard means some of its problems failed (they are in the
# shard and reported by the merge), so it does not stop the pipeline; 2 does.
set -euo pipefail
bank="$1" out="$2" n="${3:-8}"
mkdir -p "$out/logs"
ok='rc=$?; [ $rc -le 1 ]'
tests=$(sbatch --parsable --array=0-$((n - 1)) --cpus-per-task=2 --mem=4G --requeue \
  --job-name=flowbench-tests --output="$out/logs/tests-%a.log" \
  --wrap "flowbench tests gen --shard \$SLURM_ARRAY_TASK_ID/$n '$bank'/*/; $ok")
build=$(sbatch --parsable --dependency=afterok:"$tests" --array=0-$((n - 1)) --cpus-per-task=2 --mem=4G --requeue \
  --job-name=flowbench-build --output="$out/logs/build-%a.log" \
  --wrap "flowbench build --problems '$bank' --shard \$SLURM_ARRAY_TASK_ID/$n -o '$out/shard-\$SLURM_ARRAY_TASK_ID'; $ok")
sbatch --dependency=afterok:"$build" --job-name=flowbench-merge --output="$out/logs/merge.log" \
  --wrap "flowbench build merge -o '$out/dist' '$out'/shard-*/; $ok"
echo "submitted tests array $tests, build array $build ($n shards each) and the merge; the dist in $out/dist"
