module github.com/opkit-dev/opkit/configfold

go 1.26.0
