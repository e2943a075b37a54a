package servertest_test

import (
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// recordAs starts a proxy to cp's API server that authenticates every
// request with a token of sa, as the kubelet mounts one into the
// operator's pods, and records it and its answer in the returned Log. It
// returns a kubeconfig naming the proxy: a process given it acts as sa,
// with the rights config/default grants sa and no others, and every
// request it sends is recorded. The proxy stops at the end of the test,
// after whatever the test starts later.
func recordAs(t *testing.T, cp *controlplane.ControlPlane, sa *corev1.ServiceAccount) (string, *apicount.Log) {
	t.Helper()
	admin := cp.RESTConfig()
	cfg := &rest.Config{
		Host:            admin.Host,
		TLSClientConfig: rest.TLSClientConfig{CAData: admin.CAData},
		BearerToken:     token(t, cp, sa),
	}
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatal(err)
	}
	log := apicount.NewLog()
	proxy := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport:     log.WrapTransport(rt),
		FlushInterval: -1, // a watch's events reach the operator as they come
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return kubeconfig(t, srv.URL), log
}

// token returns a token of sa from the TokenRequest API.
func token(t *testing.T, cp *controlplane.ControlPlane, sa *corev1.ServiceAccount) string {
	t.Helper()
	tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)}}
	if err := cp.Client.SubResource("token").Create(t.Context(), sa, tr); err != nil {
		t.Fatalf("a token of %s/%s: %v", sa.Namespace, sa.Name, err)
	}
	return tr.Status.Token
}

// kubeconfig writes a kubeconfig for the server at url, without
// credentials.
func kubeconfig(t *testing.T, url string) string {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: url}
	kc.AuthInfos["operator"] = &clientcmdapi.AuthInfo{}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "operator"}
	kc.CurrentContext = "test"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return path
}
