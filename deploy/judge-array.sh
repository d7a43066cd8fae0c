#!/usr/bin/env bash
# Judge samples as a Slurm job array: task i judges shard i of N, resumably;
# a dependent job merges the parts. N shards merged give exactly the
# single-run results (tests/integration/judge_cli.rs: shards_merge_to_the_full_run).
#
#   deploy/judge-array.sh PROBLEMS.jsonl SAMPLES.jsonl OUT_DIR [N]
set -euo pipefail
problems="$1" samples="$2" out="$3" n="${4:-8}"
mkdir -p "$out"
array=$(sbatch --parsable --array=0-$((n - 1)) --cpus-per-task=2 --mem=4G --requeue \
  --job-name=flowbench-judge --output="$out/shard-%a.log" \
  --wrap "flowbench judge -q --problems '$problems' --samples '$samples' --shard \$SLURM_ARRAY_TASK_ID/$n -o '$out/part-\$SLURM_ARRAY_TASK_ID.jsonl'")
sbatch --dependency=afterok:"$array" --job-name=flowbench-merge --output="$out/merge.log" \
  --wrap "flowbench judge merge '$out'/part-*.jsonl -o '$out/results.jsonl'"
echo "submitted array $array ($n shards) and its merge; results in $out/results.jsonl"
