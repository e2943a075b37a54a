module github.com/opkit-dev/opkit/vector

go 1.26.0
