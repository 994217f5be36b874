import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    cells = []
    for r in d['rows']:
        cells.append("P=%d %+.1f%% (%.4f/%.4f, spread %.0f%%)" % (r['p'], 100*(r['predicted']-r['actual'])/r['actual'], r['actual'], r['predicted'], 100*(max(r['runs'])/min(r['runs'])-1)))
    print(f, ' | '.join(cells), 'drift', d.get('machine_drift', {}).get('ratio', d.get('machine_drift')) if isinstance(d.get('machine_drift'), dict) else d.get('machine_drift'))
