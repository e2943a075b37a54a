package helm

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/go-logr/logr"
	"helm.sh/helm/v4/pkg/chart/common"
	commonutil "helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/engine"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

// Generator renders a Helm chart with Helm's own loader and template
// engine; see the package documentation.
type Generator struct {
	files []*archive.BufferedFile
	name  string
	opts  Options
}

var _ generators.Generator = &Generator{}

// New reads the chart at dir of fsys (a slash-separated path, "." for the
// root) and checks that it can be rendered: it loads, it is not a library
// chart, and every dependency of its Chart.yaml is vendored in charts/.
// Failures are *generators.ConfigError, blamed on the operator's author.
func New(fsys fs.FS, dir string, opts Options) (*Generator, error) {
	files, err := readChart(fsys, dir)
	if err != nil {
		return nil, err
	}
	ch, err := loadChart(files)
	if err != nil {
		return nil, &generators.ConfigError{Field: "dir", Err: fmt.Errorf("loading chart %q: %w", dir, err)}
	}
	if err := checkChart(ch); err != nil {
		return nil, err
	}
	return &Generator{files: files, name: ch.Name(), opts: opts}, nil
}

// Generate renders the chart as release name in namespace, with the
// parameters as values (over the chart's values.yaml), and returns the
// CRDs of crds/ (unless Options.SkipCRDs) and then the templates' objects,
// in path order, with Helm hooks mapped onto the object engine's
// annotations. An object whose helm.sh/hook annotation names an event Helm
// does not know is left out, as Helm leaves it out, with a
// generators.Warning of reason ReasonUnknownHookEvent (Environment.Warn).
func (g *Generator) Generate(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
	env := generators.EnvironmentFrom(ctx)
	field := env.EffectiveParametersPath()
	ch, err := loadChart(g.files)
	if err != nil {
		return nil, err
	}
	caps, err := capabilities(env)
	if err != nil {
		return nil, err
	}
	if v := ch.Metadata.KubeVersion; v != "" && !chartutil.IsCompatibleRange(v, caps.KubeVersion.String()) {
		return nil, &generators.TemplateError{Template: "Chart.yaml", Author: failure.AuthorOperator,
			Err: fmt.Errorf("chart %s needs Kubernetes %s, the cluster runs %s", g.name, v, caps.KubeVersion.Version)}
	}
	if parameters == nil {
		parameters = map[string]any{}
	}
	if err := chartutil.ProcessDependencies(ch, parameters); err != nil {
		return nil, &generators.TemplateError{Template: "Chart.yaml", Author: failure.AuthorUser, Field: field, Err: err}
	}
	release := common.ReleaseOptions{
		Name:      name,
		Namespace: namespace,
		Revision:  int(env.EffectiveRevision()),
		IsInstall: env.IsInstall(),
		IsUpgrade: !env.IsInstall(),
	}
	values, err := commonutil.ToRenderValues(ch, parameters, release, caps)
	if err != nil {
		return nil, &generators.TemplateError{Template: "values.schema.json", Author: failure.AuthorUser, Field: field, Err: err}
	}
	if r, ok := values["Release"].(map[string]any); ok && env.ReconcilerName != "" {
		r["Service"] = env.ReconcilerName
	}
	lookups := generators.NewLookups(env)
	rendered, err := engine.Engine{CustomTemplateFuncs: funcs(ctx, env, lookups, g.opts.Funcs)}.RenderWithContext(ctx, ch, values)
	if err != nil {
		if lerr := lookups.Err(); lerr != nil {
			return nil, fmt.Errorf("chart %s: %w", g.name, lerr)
		}
		return nil, &generators.TemplateError{Template: g.name, Author: failure.AuthorUser, Field: field, Err: err}
	}

	var objects []client.Object
	if !g.opts.SkipCRDs {
		for _, crd := range ch.CRDObjects() {
			us, err := generators.Decode(crd.Filename, crd.File.Data)
			if err != nil {
				return nil, err
			}
			for _, u := range us {
				objects = append(objects, u)
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rendered)) {
		if strings.HasSuffix(p, "NOTES.txt") {
			continue
		}
		us, err := generators.Decode(p, []byte(rendered[p]))
		if err != nil {
			return nil, err
		}
		for _, u := range us {
			if w, ok := unknownHook(p, u); ok {
				env.Warn(ctx, w)
				continue
			}
			keep, err := mapObject(u, env)
			if err != nil {
				return nil, templateError(p, err)
			}
			if keep {
				objects = append(objects, u)
			}
		}
	}
	logr.FromContextOrDiscard(ctx).V(1).Info("rendered chart", "chart", g.name, "namespace", namespace, "name", name,
		"revision", release.Revision, "install", release.IsInstall, "objects", len(objects))
	return objects, nil
}

// Fingerprint identifies the chart's files (their paths and contents) and
// the generator's options that change its output.
func (g *Generator) Fingerprint() string {
	files := make([]generators.SourceFile, 0, len(g.files)+1)
	for _, f := range g.files {
		files = append(files, generators.SourceFile{Path: f.Name, Data: f.Data})
	}
	files = append(files, generators.SourceFile{Path: "\x00skipCRDs", Data: []byte(strconv.FormatBool(g.opts.SkipCRDs))})
	return generators.FingerprintFiles(files)
}
