module github.com/opkit-dev/opkit/api

go 1.26.0
