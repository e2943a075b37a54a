module github.com/opkit-dev/opkit/apply

go 1.26.0
