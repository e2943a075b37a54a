package templates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/generators"
)

// nondeterministic are sprig functions left out beyond those
// sprig.HermeticTxtFuncMap already drops: their output changes from one
// rendering to the next (random salts, keys, nonces, the clock), which
// would make the object engine rewrite the objects on every pass.
var nondeterministic = []string{
	"ago", "randInt", "shuffle", "bcrypt", "htpasswd", "encryptAES",
	"genPrivateKey", "buildCustomCert", "genCA", "genCAWithKey",
	"genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert", "genSignedCertWithKey",
}

// baseFuncs returns the functions known at parse time: sprig's
// deterministic ones, the YAML and JSON helpers, and placeholders for the
// functions bound to a rendering.
func baseFuncs() template.FuncMap {
	f := sprig.HermeticTxtFuncMap()
	for _, n := range nondeterministic {
		delete(f, n)
	}
	f["toYaml"] = toYAML
	f["fromYaml"] = fromYAML
	f["fromYamlArray"] = fromYAMLArray
	f["fromJson"] = fromJSON
	f["fromJsonArray"] = fromJSONArray
	f["required"] = required
	f[emptyIfNoValueFunc] = emptyIfNoValue
	// Placeholders: these depend on the rendering and are replaced then.
	for _, n := range []string{"include", "tpl", "lookup", "localLookup", "componentDigest",
		"componentRevision", "reconcilerName", "isInstall", "kubernetesVersion", "apiVersions"} {
		f[n] = func(...any) (any, error) { return nil, errors.New("not available at parse time") }
	}
	return f
}

// renderState holds what the functions of one rendering share.
type renderState struct {
	env     generators.Environment
	lookups *generators.Lookups

	capsOnce sync.Once
	caps     generators.Capabilities
	capsErr  error
}

func (s *renderState) capabilities() (generators.Capabilities, error) {
	s.capsOnce.Do(func() {
		if s.env.Discovery == nil {
			s.capsErr = &generators.ConfigError{Field: "Environment.Discovery",
				Err: errors.New("is nil, so kubernetesVersion and apiVersions cannot be answered")}
			return
		}
		s.caps, s.capsErr = generators.DiscoverCapabilities(s.env.Discovery)
	})
	return s.caps, s.capsErr
}

// envErr returns the failure of the rendering's environment (a lookup or
// discovery call), which outranks the template error it caused.
func (s *renderState) envErr() error {
	if err := s.lookups.Err(); err != nil {
		return err
	}
	if s.capsErr != nil {
		return s.capsErr
	}
	return nil
}

// renderFuncs returns the functions bound to one rendering of t.
func (s *renderState) renderFuncs(ctx context.Context, t *template.Template) template.FuncMap {
	return template.FuncMap{
		"include": func(name string, data any) (string, error) {
			var b strings.Builder
			err := t.ExecuteTemplate(&b, name, data)
			return b.String(), err
		},
		"tpl": func(text string, data any) (string, error) {
			c, err := t.Clone()
			if err != nil {
				return "", err
			}
			c, err = c.New(t.Name() + "#tpl").Parse(text)
			if err != nil {
				return "", fmt.Errorf("tpl: %w", err)
			}
			printNothingForNoValue(c)
			var b strings.Builder
			if err := c.Execute(&b, data); err != nil {
				return "", fmt.Errorf("tpl: %w", err)
			}
			return b.String(), nil
		},
		"lookup":            s.lookups.Target(ctx),
		"localLookup":       s.lookups.Local(ctx),
		"componentDigest":   func() string { return s.env.ComponentDigest },
		"componentRevision": s.env.EffectiveRevision,
		"reconcilerName":    func() string { return s.env.ReconcilerName },
		"isInstall":         s.env.IsInstall,
		"kubernetesVersion": func() (*version.Info, error) {
			c, err := s.capabilities()
			return c.KubeVersion, err
		},
		"apiVersions": func() ([]string, error) {
			c, err := s.capabilities()
			return c.APIVersions, err
		},
	}
}

func toYAML(v any) (string, error) {
	b, err := yaml.Marshal(v)
	return strings.TrimSuffix(string(b), "\n"), err
}

func fromYAML(s string) (map[string]any, error) {
	m := map[string]any{}
	err := yaml.Unmarshal([]byte(s), &m)
	return m, err
}

func fromYAMLArray(s string) ([]any, error) {
	var a []any
	err := yaml.Unmarshal([]byte(s), &a)
	return a, err
}

func fromJSON(s string) (map[string]any, error) {
	m := map[string]any{}
	err := json.Unmarshal([]byte(s), &m)
	return m, err
}

func fromJSONArray(s string) ([]any, error) {
	var a []any
	err := json.Unmarshal([]byte(s), &a)
	return a, err
}

// required fails the rendering with msg when v is nil or "".
func required(msg string, v any) (any, error) {
	if v == nil {
		return nil, errors.New(msg)
	}
	if s, ok := v.(string); ok && s == "" {
		return nil, errors.New(msg)
	}
	return v, nil
}
