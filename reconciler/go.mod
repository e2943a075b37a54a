module github.com/opkit-dev/opkit/reconciler

go 1.26.0
