"""Summarise validation passes: summary.py PASSDIR [PASSDIR...].

Prints a Markdown table of relative errors (one column per P, the passes
separated by " / ") and one of actual / predicted seconds with the spread
of the real runs ((max - min) / min) for the last pass.
"""
import json
import os
import sys

EXAMPLES = ["heat", "matmul", "transpose", "mandelbrot", "cg", "pingpong"]
PS = [1, 2, 4, 8]


def rows(d, ex):
    try:
        with open(os.path.join(d, ex + ".json")) as f:
            return {r["p"]: r for r in json.load(f)["rows"]}
    except (OSError, ValueError, KeyError):
        return {}


def main(dirs):
    print("| example | " + " | ".join("P = %d" % p for p in PS) + " |")
    print("|---" * (len(PS) + 1) + "|")
    for ex in EXAMPLES:
        cells = []
        for p in PS:
            errs = [rows(d, ex).get(p) for d in dirs]
            cells.append(" / ".join("%.1f%%" % (r["rel_err"] * 100) if r else "-" for r in errs))
        print("| %s | %s |" % (ex, " | ".join(cells)))
    print()
    print("| example | " + " | ".join("P = %d" % p for p in PS) + " |")
    print("|---" * (len(PS) + 1) + "|")
    for ex in EXAMPLES:
        cells = []
        for p in PS:
            r = rows(dirs[-1], ex).get(p)
            if not r:
                cells.append("-")
                continue
            runs = r.get("runs") or [r["actual"]]
            spread = (max(runs) - min(runs)) / min(runs)
            cells.append("%.3g / %.3g (%.0f%%)" % (r["actual"], r["predicted"], spread * 100))
        print("| %s | %s |" % (ex, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1:])
