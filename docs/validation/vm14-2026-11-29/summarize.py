#!/usr/bin/env python3
"""summarize.py PASSDIR...: error at each P, machine drift and run spread per example."""
import json, sys
for d in sys.argv[1:]:
    print("==", d)
    within = total = 0
    for x in ["heat", "matmul", "transpose", "mandelbrot", "cg", "pingpong"]:
        v = json.load(open(f"{d}/{x}.json"))
        errs = [100 * (r["predicted"] - r["actual"]) / r["actual"] for r in v["rows"]]
        within += sum(abs(e) <= 15 for e in errs)
        total += len(errs)
        drift = v.get("machine_drift")
        if isinstance(drift, dict):
            drift = drift.get("ratio")
        spread = [100 * (max(r["runs"]) / min(r["runs"]) - 1) for r in v["rows"]]
        print("%-10s %s %%  drift %s  spread %s %%" % (x, " / ".join("%+.1f" % e for e in errs),
              "%.2f" % drift if isinstance(drift, float) else drift, " ".join("%.0f" % s for s in spread)))
    print("within 15 %%: %d of %d" % (within, total))
