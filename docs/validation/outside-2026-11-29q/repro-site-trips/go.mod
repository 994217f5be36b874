module example.com/repro-site-trips

go 1.26.0

require github.com/parpredict/parpredict v0.0.0

replace github.com/parpredict/parpredict => ../../../..
