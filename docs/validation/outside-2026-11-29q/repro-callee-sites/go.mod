module example.com/repro-callee-sites

go 1.26.0

require github.com/parpredict/parpredict v0.0.0

replace github.com/parpredict/parpredict => ../../../..
