#!/usr/bin/env python3
"""Fans one URL list out over a Dask cluster: one task per shard, each running
`imgfetch prefetch --shard I/N` with its own cache, all sharing one remote cache tier; prints the
shards' summed counts (from their --summary-json) and exits 1 if a shard failed.

Usage: prefetch_fanout.py URLS --remote-cache TIER [--workers 4] [--shards N] [--imgfetch PATH]
                          [--work-dir DIR] [--scheduler ADDRESS]

Without --scheduler it starts a local cluster of --workers processes (one thread each); with one,
it uses that cluster, whose workers must have imgfetch and the list at the same paths.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from dask.distributed import Client, LocalCluster


def prefetch_shard(index, count, urls, tier, imgfetch, work_dir):
    """Runs one shard; returns its exit status, the end of its stderr and its summary."""
    summary = os.path.join(work_dir, f"summary-{index}.json")
    environment = dict(os.environ, IMGFETCH_CACHE_DIR=os.path.join(work_dir, f"cache-{index}"))
    done = subprocess.run(
        [imgfetch, "prefetch", "-q", "--shard", f"{index}/{count}", "--max-failures", "1%",
         "--remote-cache", tier, "--summary-json", summary, urls],
        env=environment, capture_output=True, text=True)
    counts = None
    if os.path.exists(summary):
        with open(summary) as file:
            counts = json.load(file)
    return {"shard": index, "exit": done.returncode, "stderr": done.stderr[-2000:], "summary": counts}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("urls")
    parser.add_argument("--remote-cache", required=True)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--shards", type=int)
    parser.add_argument("--imgfetch", default="imgfetch")
    parser.add_argument("--work-dir")
    parser.add_argument("--scheduler")
    args = parser.parse_args()
    shards = args.shards or args.workers
    work_dir = args.work_dir or tempfile.mkdtemp(prefix="imgfetch-dask-")
    urls = os.path.abspath(args.urls)

    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(prefetch_shard, range(shards), count=shards, urls=urls, tier=args.remote_cache,
                             imgfetch=args.imgfetch, work_dir=work_dir, pure=False)
        results = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    failed = [r for r in results if r["exit"] != 0 or r["summary"] is None]
    for r in failed:
        print(f"shard {r['shard']}/{shards}: exit {r['exit']}\n{r['stderr']}", file=sys.stderr)
    summaries = [r["summary"] for r in results if r["summary"]]
    total = {
        "shards": shards,
        "urls": sum(s["urls"] for s in summaries),
        "network": sum(s["loaded"]["network"] for s in summaries),
        "remote": sum(s["loaded"]["remote"] for s in summaries),
        "failed": sum(s["failed"] for s in summaries),
    }
    print(json.dumps(total))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
