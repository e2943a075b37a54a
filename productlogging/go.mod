module github.com/opkit-dev/opkit/productlogging

go 1.26.0
