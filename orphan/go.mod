module github.com/opkit-dev/opkit/orphan

go 1.26.0
