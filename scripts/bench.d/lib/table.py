#!/usr/bin/env python3
"""Prints the benchmark's result rows as one Markdown table (so it can go into README.md as is).

Usage: table.py RESULTS.tsv
Each line of RESULTS.tsv is one row: scenario, comparison, imgfetch, reference, ratio, target,
result (PASS, FAIL, info, or "SKIP: why"). Rows of one scenario follow each other; the scenario is
named on its first row only. A closing line counts the PASS and FAIL rows.
"""

import sys

HEADER = ["scenario", "comparison", "imgfetch", "reference", "ratio", "target", "result"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    except FileNotFoundError:
        rows = []
    if not rows:
        print("(no results)")
        return
    # A "|" inside a cell (`cache ls | head`) would end the cell in Markdown.
    rows = [[cell.replace("|", "\\|") for cell in (row + [""] * len(HEADER))[: len(HEADER)]] for row in rows]
    shown, previous = [], None
    for row in rows:
        scenario = row[0] if row[0] != previous else ""
        previous = row[0]
        result = f"**{row[6]}**" if row[6] in ("PASS", "FAIL") else row[6]
        shown.append([scenario] + row[1:6] + [result])
    widths = [max(len(r[i]) for r in shown + [HEADER]) for i in range(len(HEADER))]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(HEADER))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in shown:
        print(line(row))
    verdicts = [row[6] for row in rows]
    passed, failed = verdicts.count("PASS"), verdicts.count("FAIL")
    skipped = sum(v.startswith("SKIP") for v in verdicts)
    print(f"\n{passed} PASS, {failed} FAIL, {skipped} SKIP against the targets of issues 6, 26, 27, 29 and 30.")


if __name__ == "__main__":
    main()
