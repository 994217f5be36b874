#!/bin/bash
# polling.sh: five rounds of the examples and halo2d at P = 4 and 8, with the
# goroutine backend polling (PP_POLL=on) and not (PP_POLL=off), alternating;
# prints "program P mode seconds". The binaries in /tmp/exb were built from
# the repository with polling.patch applied (git apply, then go build of
# each example into /tmp/exb/NAME and of halo2d from its folder); without
# the patch PP_POLL does nothing.
for rep in 1 2 3 4 5; do
for ex in heat cg transpose matmul mandelbrot halo2d; do
  args="-check=false"; [ $ex = halo2d ] && args="-n 1024 -steps 100 -check=false"
  for np in 4 8; do
    for mode in on off; do
      t=$(PP_POLL=$mode /tmp/exb/$ex -np $np $args | grep elapsed | awk '{print $2}')
      echo "$ex $np $mode $t"
    done
  done
done
done
