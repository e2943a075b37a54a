package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/pmezard/go-difflib/difflib"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// textWriter writes text, keeping the first error.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

// diff writes a unified diff of the live object against the planned one,
// as YAML, with kubectl diff's file names: live/ and planned/ followed by
// group.version.kind.namespace.name. A create diffs against nothing, a
// delete against nothing.
func (t *textWriter) diff(ch change) error {
	live, err := yamlOf(ch.Live)
	if err != nil {
		return err
	}
	planned, err := yamlOf(ch.Desired)
	if err != nil {
		return err
	}
	o := ch.Object
	name := o.Group
	if name != "" {
		name += "."
	}
	name += fmt.Sprintf("%s.%s.%s.%s", o.Version, o.Kind, o.Namespace, o.Name)
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(live), B: difflib.SplitLines(planned),
		FromFile: "live/" + name, ToFile: "planned/" + name, Context: 3,
	})
	if err != nil {
		return err
	}
	t.printf("%s", text)
	return t.err
}

// yamlOf is obj as YAML, empty for nil.
func yamlOf(obj *unstructured.Unstructured) (string, error) {
	if obj == nil {
		return "", nil
	}
	b, err := yaml.Marshal(obj.Object)
	return string(b), err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// The JSON form of plans, documented in the README.
type (
	plansJSON struct {
		Resources []resourcePlanJSON `json:"resources"`
		Complete  bool               `json:"complete"`
		Errors    []string           `json:"errors,omitempty"`
	}
	resourcePlanJSON struct {
		Namespace  string           `json:"namespace"`
		Name       string           `json:"name"`
		Exists     bool             `json:"exists"`
		HasChanges bool             `json:"hasChanges"`
		Notes      []string         `json:"notes,omitempty"`
		Changes    []changeJSON     `json:"changes"`
		Retired    []retirementJSON `json:"retired,omitempty"`
		Conditions []conditionJSON  `json:"conditions,omitempty"`
		Events     []event          `json:"events,omitempty"`
		Warnings   []string         `json:"warnings,omitempty"`
	}
	changeJSON struct {
		Scope         string                     `json:"scope,omitempty"`
		APIVersion    string                     `json:"apiVersion"`
		Kind          string                     `json:"kind"`
		Namespace     string                     `json:"namespace,omitempty"`
		Name          string                     `json:"name"`
		Action        string                     `json:"action"`
		Wave          int                        `json:"wave"`
		Transient     bool                       `json:"transient,omitempty"`
		Cause         string                     `json:"cause,omitempty"`
		Reason        string                     `json:"reason,omitempty"`
		Fields        []fieldJSON                `json:"fields,omitempty"`
		Verified      bool                       `json:"verified"`
		IgnoredFields []string                   `json:"ignoredFields,omitempty"`
		Error         string                     `json:"error,omitempty"`
		Live          *unstructured.Unstructured `json:"live,omitempty"`
		Planned       *unstructured.Unstructured `json:"planned,omitempty"`
	}
	fieldJSON struct {
		Path   string `json:"path"`
		Change string `json:"change"`
	}
	retirementJSON struct {
		Role    string   `json:"role"`
		Group   string   `json:"group"`
		Stage   string   `json:"stage"`
		Actions []string `json:"actions,omitempty"`
		Error   string   `json:"error,omitempty"`
	}
	conditionJSON struct {
		Type    string `json:"type"`
		Status  string `json:"status"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
)

func planJSON(reports []report, errs []error) plansJSON {
	out := plansJSON{Resources: []resourcePlanJSON{}, Complete: len(errs) == 0}
	for _, err := range errs {
		out.Errors = append(out.Errors, err.Error())
	}
	for _, r := range reports {
		rp := resourcePlanJSON{Namespace: r.Resource.Namespace, Name: r.Resource.Name, Exists: r.Exists,
			HasChanges: r.hasChanges, Notes: r.Notes, Changes: []changeJSON{}, Events: r.Events, Warnings: r.Warnings}
		for _, ch := range r.Changes {
			o := ch.Object
			cj := changeJSON{Scope: ch.Scope, APIVersion: o.GroupVersionKind().GroupVersion().String(), Kind: o.Kind, Namespace: o.Namespace, Name: o.Name,
				Action: string(ch.Action), Wave: ch.Wave, Transient: ch.Transient, Cause: string(ch.Cause), Reason: ch.Reason,
				Verified: ch.Verified, IgnoredFields: ch.IgnoredFields, Live: ch.Live, Planned: ch.Desired}
			for _, fc := range ch.Fields {
				cj.Fields = append(cj.Fields, fieldJSON{Path: fc.Path, Change: fc.Change})
			}
			if ch.Err != nil {
				cj.Error = ch.Err.Error()
			}
			rp.Changes = append(rp.Changes, cj)
		}
		for _, g := range r.Retired {
			rj := retirementJSON{Role: g.Role, Group: g.Group, Stage: g.Stage, Actions: g.Actions}
			if g.Err != nil {
				rj.Error = g.Err.Error()
			}
			rp.Retired = append(rp.Retired, rj)
		}
		rp.Conditions = conditionsJSON(r.Conditions)
		out.Resources = append(out.Resources, rp)
	}
	return out
}

// conditionsJSON is conds in the JSON forms, an empty list for none.
func conditionsJSON(conds []metav1.Condition) []conditionJSON {
	out := make([]conditionJSON, 0, len(conds))
	for _, c := range conds {
		out = append(out, conditionJSON{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message})
	}
	return out
}
