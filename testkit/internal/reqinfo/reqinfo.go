// Package reqinfo classifies Kubernetes API requests by verb and resource,
// with the API server's own request parser, for the counting and
// fault-injecting round-trippers of testkit.
package reqinfo

import (
	"net/http"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/endpoints/request"
)

// Info is what testkit keys requests by.
type Info struct {
	// Verb is the Kubernetes verb: get, list, watch, create, update, patch,
	// delete, deletecollection. Non-resource requests use the lower-cased
	// HTTP method.
	Verb string
	// Resource is "<resource>[.<group>][/<subresource>]", e.g. "pods",
	// "statefulsets.apps", "statefulsets.apps/scale"; for a non-resource
	// request it is the URL path, e.g. "/apis".
	Resource string
	// Namespace and Name are those of the request, when it has them.
	Namespace, Name string
	// Group, Plural and Subresource are the parts of Resource, for a
	// resource request.
	Group, Plural, Subresource string
}

// Classify returns the request's Info.
func Classify(req *http.Request) Info {
	factory := request.RequestInfoFactory{
		APIPrefixes:          sets.NewString("api", "apis"),
		GrouplessAPIPrefixes: sets.NewString("api"),
	}
	ri, err := factory.NewRequestInfo(req)
	if err != nil || ri == nil || !ri.IsResourceRequest {
		verb := req.Method
		if ri != nil && ri.Verb != "" {
			verb = ri.Verb
		}
		return Info{Verb: strings.ToLower(verb), Resource: req.URL.Path}
	}
	return Info{
		Verb:      ri.Verb,
		Resource:  Resource(ri.APIGroup, ri.Resource, ri.Subresource),
		Namespace: ri.Namespace,
		Name:      ri.Name,
		Group:     ri.APIGroup, Plural: ri.Resource, Subresource: ri.Subresource,
	}
}

// Resource formats a group, resource and subresource the way Info does.
func Resource(group, resource, subresource string) string {
	s := resource
	if group != "" {
		s += "." + group
	}
	if subresource != "" {
		s += "/" + subresource
	}
	return s
}

// readVerbs and writeVerbs are the verbs that read and that change the
// cluster.
var (
	readVerbs  = []string{"get", "list", "watch"}
	writeVerbs = []string{"create", "update", "patch", "delete", "deletecollection"}
)

// IsRead reports whether verb reads: get, list or watch.
func IsRead(verb string) bool { return slices.Contains(readVerbs, verb) }

// IsWrite reports whether verb changes the cluster: create, update, patch,
// delete or deletecollection.
func IsWrite(verb string) bool { return slices.Contains(writeVerbs, verb) }
