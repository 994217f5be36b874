module github.com/parpredict/parpredict

go 1.26.0

require (
	github.com/spf13/cobra v1.10.2
	golang.org/x/tools v0.52.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
