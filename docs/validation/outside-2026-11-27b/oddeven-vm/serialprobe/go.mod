module example.com/serialprobe

go 1.26.0
