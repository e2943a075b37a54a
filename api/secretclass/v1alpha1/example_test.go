package v1alpha1_test

import (
	"fmt"

	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// A connection that checks the server against the CA of the "tls" secret
// class, and the scope annotation of a volume issued for the pod and its
// Service.
func Example() {
	tls := &v1alpha1.TLS{Verification: &v1alpha1.TLSVerification{
		Server: &v1alpha1.ServerVerification{CACert: v1alpha1.CACert{SecretClass: ptr.To("tls")}},
	}}
	scope := &v1alpha1.Scope{Pod: true, Services: []string{"trino"}}
	fmt.Println(tls.Verified(), tls.CASecretClass())
	fmt.Println(v1alpha1.AnnotationScope + "=" + scope.String())
	// Output:
	// true tls
	// secrets.opkit.dev/scope=pod,service=trino
}
