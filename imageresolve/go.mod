module github.com/opkit-dev/opkit/imageresolve

go 1.26.0
