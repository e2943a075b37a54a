package helm

import (
	"context"
	"fmt"
	"maps"

	"helm.sh/helm/v4/pkg/chart/common"

	"github.com/opkit-dev/opkit/generators"
)

// capabilities answers .Capabilities from Environment.Discovery, or with
// Helm's offline defaults (client-go's Kubernetes version and the built-in
// API versions) when there is none.
func capabilities(env generators.Environment) (*common.Capabilities, error) {
	if env.Discovery == nil {
		return common.DefaultCapabilities.Copy(), nil
	}
	c, err := generators.DiscoverCapabilities(env.Discovery)
	if err != nil {
		return nil, err
	}
	kv, err := common.ParseKubeVersion(c.KubeVersion.GitVersion)
	if err != nil {
		return nil, fmt.Errorf("server version %q: %w", c.KubeVersion.GitVersion, err)
	}
	return &common.Capabilities{
		KubeVersion: *kv,
		APIVersions: common.VersionSet(c.APIVersions),
		HelmVersion: common.DefaultCapabilities.HelmVersion,
	}, nil
}

// funcs returns the extra functions of one rendering: lookups through the
// Environment's readers and the component's digest, then the caller's.
func funcs(ctx context.Context, env generators.Environment, lookups *generators.Lookups, extra map[string]any) map[string]any {
	f := map[string]any{
		"lookup":          lookups.Target(ctx),
		"localLookup":     lookups.Local(ctx),
		"componentDigest": func() string { return env.ComponentDigest },
		"reconcilerName":  func() string { return env.ReconcilerName },
	}
	maps.Copy(f, extra)
	return f
}
