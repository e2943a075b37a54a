module github.com/opkit-dev/opkit/e2e

go 1.26.0
