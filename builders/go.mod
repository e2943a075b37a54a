module github.com/opkit-dev/opkit/builders

go 1.26.0
