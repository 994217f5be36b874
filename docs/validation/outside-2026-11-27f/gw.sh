# source this: gw DIR -> exports GOWORK pinning the parpredict module to the
# snapshot /tmp/ppF-snap (git archive 3d1a0a4, what /tmp/predictF was built
# from), when it exists; otherwise (or with PPF_LIVE=1) the module's own
# replace => ../../../.. (the working tree) is used.
gw() {
  if [ -n "${PPF_LIVE:-}" ] || [ ! -d /tmp/ppF-snap ]; then
    unset GOWORK
    return
  fi
  local d=$(cd "$1" && pwd)
  local f=/tmp/ppF/work-$(echo "$d" | md5sum | cut -c1-8).work
  mkdir -p /tmp/ppF
  printf 'go 1.26.0\n\nuse %s\n\nreplace github.com/parpredict/parpredict => /tmp/ppF-snap\n' "$d" > $f
  export GOWORK=$f
}
