#!/usr/bin/env python3
"""Prints the table of docs/validation.md from the JSON reports here (or
in the directory given by $DIR, e.g. DIR=../vm2-2026-11-24b): actual
(fastest of the runs) and predicted seconds, error, spread of the runs
((max - min) / min)."""
import json, os, sys

here = os.environ.get("DIR") or os.path.dirname(os.path.abspath(__file__))
names = sys.argv[1:] or ["kernelcall", "grid2d", "nbody", "copies", "sparse", "cyclic", "tasks", "blocks2d", "summa"]
print("| program | P = 1 | P = 2 | P = 4 |")
print("|---|---|---|---|")
for n in names:
    d = json.load(open(os.path.join(here, n + ".json")))
    cells = []
    for r in d["rows"]:
        runs = r["runs"]
        spread = (max(runs) - min(runs)) / min(runs) * 100
        cells.append("%.4f / %.4f s, %.1f %% (spread %.0f %%)" % (r["actual"], r["predicted"], r["rel_err"] * 100, spread))
    print("| %s | %s |" % (n, " | ".join(cells)))
