package servertest_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/testkit/apicount"
)

// checkRights fails the test for every request answered 403 Forbidden
// (but for writes into a namespace being deleted, which say nothing of
// rights) and for every verb on a resource that grants give and no
// request used, unless unreachable explains it ("<verb>
// <resource>[.<group>]" → why the test cannot reach it; a path it may
// reach by chance, such as a conflict, is listed there too). A Role's rules
// count only the requests in its namespace. A list no request used on a
// resource that was watched is expected: informers stream their initial
// list through the watch, and list is their fallback against a server
// that cannot. A right listed in unreachable that no role grants is a
// finding too: the list stays true to the roles. It logs how many
// requests each granted verb served.
func checkRights(t *testing.T, log *apicount.Log, grants []grant, unreachable map[string]string) {
	t.Helper()
	problems := refusals(log)
	used := countUsed(log)
	granted := map[string]bool{}
	var lines []string
	for _, g := range grants {
		for _, rule := range g.rules {
			for _, group := range rule.APIGroups {
				for _, res := range rule.Resources {
					for _, v := range rule.Verbs {
						k := v + " " + resourceOf(group, res, "")
						granted[k] = true
						n := used[g.namespace+"|"+k]
						why, explained := unreachable[k]
						watched := v == "list" && used[g.namespace+"|watch "+resourceOf(group, res, "")] > 0
						line := fmt.Sprintf("%5d  %s (%s %s)", n, k, g.kind, g.name)
						switch {
						case explained:
							line += ": listed as unreachable, " + why
						case n == 0 && !watched:
							problems = append(problems, fmt.Sprintf("granted by %s %s and never used: %s", g.kind, g.name, k))
						}
						lines = append(lines, line)
					}
				}
			}
		}
	}
	for k := range unreachable {
		if !granted[k] {
			problems = append(problems, "listed as unreachable, yet no role grants it: "+k)
		}
	}
	slices.Sort(lines)
	slices.Sort(problems)
	t.Logf("requests per granted verb:\n%s", strings.Join(lines, "\n"))
	if len(problems) > 0 {
		t.Errorf("the rights config/default grants are not enough, or more than needed:\n%s", strings.Join(problems, "\n"))
	}
}

// countUsed counts the requests log holds by "<namespace>|<verb>
// <resource>", and by "|<verb> <resource>" whatever their namespace; a
// deletecollection counts as a delete, the verb a rule names for both.
func countUsed(log *apicount.Log) map[string]int {
	used := map[string]int{}
	for _, r := range log.Requests() {
		verb := r.Verb
		if verb == "deletecollection" {
			verb = "delete"
		}
		k := verb + " " + resourceOf(r.Group, r.Resource, r.Subresource)
		used["|"+k]++
		if r.Namespace != "" {
			used[r.Namespace+"|"+k]++
		}
	}
	return used
}

// refusals returns a line per distinct request log holds that the API
// server refused for want of rights (403 Forbidden, but for writes into a
// namespace being deleted), sorted.
func refusals(log *apicount.Log) []string {
	var out []string
	for _, r := range log.Requests() {
		if r.Status == http.StatusForbidden && !terminating(r.Refusal) {
			line := fmt.Sprintf("refused: %s %s (namespace %q, name %q)", r.Verb, resourceOf(r.Group, r.Resource, r.Subresource), r.Namespace, r.Name)
			if !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	slices.Sort(out)
	return out
}

// terminating tells whether a refusal is the API server's refusal of a
// write into a namespace being deleted.
func terminating(s *metav1.Status) bool {
	if s == nil || s.Details == nil {
		return false
	}
	return slices.ContainsFunc(s.Details.Causes, func(c metav1.StatusCause) bool {
		return c.Type == corev1.NamespaceTerminatingCause
	})
}

// resourceOf names a resource as "<resource>[/<subresource>][.<group>]".
func resourceOf(group, resource, subresource string) string {
	s := resource
	if subresource != "" {
		s += "/" + subresource
	}
	if group != "" {
		s += "." + group
	}
	return s
}
