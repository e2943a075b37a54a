module github.com/opkit-dev/opkit/sidecar

go 1.26.0
