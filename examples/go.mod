module github.com/opkit-dev/opkit/examples

go 1.26.0
