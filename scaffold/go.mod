module github.com/opkit-dev/opkit/scaffold

go 1.26.0

require (
	github.com/go-logr/logr v1.4.4
	github.com/gobuffalo/flect v1.0.3
	github.com/google/go-cmp v0.7.0
	golang.org/x/mod v0.43.0
	k8s.io/apimachinery v0.37.2
	sigs.k8s.io/yaml v1.6.0
)

require (
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
	k8s.io/utils v0.0.0-20260626114624-be93311217bd // indirect
)
