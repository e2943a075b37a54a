package vector

import (
	"cmp"
	"fmt"
	"slices"

	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
)

// ConfigFileName is the key of the agent's configuration in the role
// group's ConfigMap, and its file name in the agent container.
const ConfigFileName = "vector.yaml"

// DataDir is where the agent keeps its checkpoints; the provider backs it
// with the shared log volume.
const DataDir = "/opkit/vector/data"

// SinkName is the id of the sink that forwards events to the aggregator.
const SinkName = "aggregator"

// EnrichTransformName is the id of the transform that adds where an event
// comes from.
const EnrichTransformName = "enrich"

// ConfigOptions says what the agent collects and where it sends it.
type ConfigOptions struct {
	// Producers are the containers whose log files are collected; at least
	// one is required. Their order does not matter.
	Producers []productlogging.Producer
	// Aggregator is the aggregator's address, host:port, as DiscoverAggregator
	// returns it. Required.
	Aggregator string
	// Scope is the role group; its namespace, cluster, role and group are
	// added to every event.
	Scope builders.Scope
}

// SourceName returns the id of the file source reading p's log file.
func SourceName(p productlogging.Producer) string { return "files_" + p.Container }

// ParseTransformName returns the id of the transform parsing p's events.
func ParseTransformName(p productlogging.Producer) string { return "parse_" + p.Container }

// RenderConfig returns vector.yaml for opts: a file source per producer
// reading the file productlogging writes when it collects files, a parse
// transform per producer for its framework's layout, one enrich transform
// adding namespace, cluster, role, roleGroup and pod (container is added by
// the parse transform), and a vector sink to the aggregator. The same
// options give the same bytes.
//
// Options are the operator's: the producers come from the role's
// declaration and the address from AggregatorAddress, which has validated
// the user's value already. So every problem is of class
// failure.ErrInvalid, blamed on the operator.
func RenderConfig(opts ConfigOptions) (string, error) {
	if len(opts.Producers) == 0 {
		return "", failure.Invalid(failure.AuthorOperator, "logProducers", "vector config: no log producers; Decide skips the agent for such a role")
	}
	if err := productlogging.ValidateProducers(opts.Producers); err != nil {
		return "", fmt.Errorf("vector config: %w", err)
	}
	if err := ValidateAddress(opts.Aggregator); err != nil {
		verr := failure.Invalid(failure.AuthorOperator, "ConfigOptions.Aggregator", "vector config: take the address from AggregatorAddress")
		verr.Err = err
		return "", verr
	}
	producers := slices.Clone(opts.Producers)
	slices.SortFunc(producers, func(a, b productlogging.Producer) int { return cmp.Compare(a.Container, b.Container) })

	cfg := config{
		DataDir:    DataDir,
		Sources:    map[string]source{},
		Transforms: map[string]transform{},
		Sinks: map[string]sink{SinkName: {
			Type:    "vector",
			Inputs:  []string{EnrichTransformName},
			Address: opts.Aggregator,
		}},
	}
	var parsed []string
	for _, p := range producers {
		cfg.Sources[SourceName(p)] = fileSource(p)
		cfg.Transforms[ParseTransformName(p)] = transform{
			Type:   "remap",
			Inputs: []string{SourceName(p)},
			Source: parseProgram(p),
		}
		parsed = append(parsed, ParseTransformName(p))
	}
	cfg.Transforms[EnrichTransformName] = transform{
		Type:   "remap",
		Inputs: parsed,
		Source: enrichProgram(opts.Scope),
	}
	out, err := yaml.Marshal(cfg)
	if err != nil {
		return "", fmt.Errorf("vector config: %w", err)
	}
	return "# Vector agent configuration; generated, do not edit.\n" + string(out), nil
}

// config is the part of Vector's configuration schema opkit writes.
type config struct {
	DataDir    string               `json:"data_dir"`
	Sources    map[string]source    `json:"sources"`
	Transforms map[string]transform `json:"transforms"`
	Sinks      map[string]sink      `json:"sinks"`
}

type source struct {
	Type      string     `json:"type"`
	Include   []string   `json:"include"`
	Multiline *multiline `json:"multiline,omitempty"`
}

// multiline joins the lines of one event: an event starts at a line
// matching StartPattern and ends before the next such line.
type multiline struct {
	Mode             string `json:"mode"`
	StartPattern     string `json:"start_pattern"`
	ConditionPattern string `json:"condition_pattern"`
	TimeoutMS        int    `json:"timeout_ms"`
}

type transform struct {
	Type   string   `json:"type"`
	Inputs []string `json:"inputs"`
	Source string   `json:"source"`
}

type sink struct {
	Type    string   `json:"type"`
	Inputs  []string `json:"inputs"`
	Address string   `json:"address"`
}

// fileSource reads p's active log file. Rolled files are left alone: the
// agent has read them already while they were active.
func fileSource(p productlogging.Producer) source {
	start := log4jEventStart
	if p.Framework == productlogging.Python {
		start = pythonLineStart
	}
	return source{
		Type:    "file",
		Include: []string{p.LogFilePath()},
		Multiline: &multiline{
			Mode:             "halt_before",
			StartPattern:     start,
			ConditionPattern: start,
			TimeoutMS:        1000,
		},
	}
}
