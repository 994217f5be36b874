import json,sys
for f in sys.argv[1:]:
    d=json.load(open(f))
    print(f, 'max', round(d['max_rel_err']*100,1), 'mean', round(d['mean_rel_err']*100,1), 'drift', d.get('machine_drift',{}).get('ratio'))
    for r in d['rows']:
        print(" P=%d actual %.1f ms predicted %.1f ms err %+.1f %% runs %s" % (r['p'], r['actual']*1e3, r['predicted']*1e3, (r['predicted']-r['actual'])/r['actual']*100, ' '.join('%.1f'%(x*1e3) for x in r['runs'])))
