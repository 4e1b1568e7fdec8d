#!/usr/bin/env bash
# A Slurm array of 4 tasks, each prefetching its shard of one URL list into a node-local cache,
# all sharing one remote cache tier: sbatch --export=ALL,URLS=urls.txt,IMGFETCH_REMOTE_CACHE=… prefetch-array.sh
# `--shard auto` takes SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT, so
# the array may start at 1 (or anywhere) and no shell arithmetic is needed.
#SBATCH --job-name=imgfetch-prefetch
#SBATCH --array=1-4
#SBATCH --cpus-per-task=4
#SBATCH --output=prefetch-%A_%a.out
set -euo pipefail

: "${URLS:?set URLS to the list of URLs}"
: "${IMGFETCH_REMOTE_CACHE:?set IMGFETCH_REMOTE_CACHE to the shared tier}"
export IMGFETCH_REMOTE_CACHE
export IMGFETCH_CACHE_DIR="${IMGFETCH_CACHE_DIR:-${TMPDIR:-/tmp}/imgfetch-$SLURM_ARRAY_JOB_ID-$SLURM_ARRAY_TASK_ID}"

exec "${IMGFETCH:-imgfetch}" prefetch -q -j "$((4 * ${SLURM_CPUS_PER_TASK:-4}))" --shard auto --max-failures 1% \
  --summary-json "${SUMMARY_DIR:-.}/summary-$SLURM_ARRAY_JOB_ID-$SLURM_ARRAY_TASK_ID.json" "$URLS"
