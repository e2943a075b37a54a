package scaffold

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"golang.org/x/mod/module"
	"k8s.io/apimachinery/pkg/util/validation"
)

// FlagError is a flag value the scaffold refuses: the flag, the value as
// given (empty when none was) and the rule it breaks.
type FlagError struct {
	// Flag is the command's flag, such as "--group".
	Flag string
	// Value is the value given.
	Value string
	// Rule says what the value must be.
	Rule string
}

// Error implements error.
func (e *FlagError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %s", e.Flag, e.Rule)
	}
	return fmt.Sprintf("%s %q: %s", e.Flag, e.Value, e.Rule)
}

// Bounds that keep the names derived from a value within Kubernetes'
// limits.
const (
	// MaxNameLength bounds --name: config/default derives Service names
	// such as "<name>-metrics-service", which must be DNS-1035 labels of
	// at most 63 characters.
	MaxNameLength = 63 - len("-metrics-service")
	// MaxKindLength bounds --kind and its plural: in lower case they are
	// the CRD's singular and plural resource names, DNS-1035 labels of at
	// most 63 characters.
	MaxKindLength = validation.DNS1035LabelMaxLength
)

// The rules, as errors state them.
const (
	ruleRequired = "is required"
	ruleType     = "must be product or component"
	ruleName     = "must be a DNS-1035 label of at most %d characters: lower-case letters, digits and '-', starting with a letter and ending with a letter or digit, such as zookeeper-operator"
	ruleModule   = "must be a Go module path, such as example.com/zookeeper-operator: %s"
	ruleGroup    = "must be a DNS-1123 subdomain with at least one dot, such as zookeeper.example.com: lower-case letters, digits, '-' and '.', each part between dots starting and ending with a letter or digit, at most 253 characters"
	ruleCRDName  = "is too long for the kind: the CRD's name, <plural of the kind>.<group>, must be at most 253 characters"
	ruleVersion  = "must be v<N>, v<N>alpha<M> or v<N>beta<M>, N and M positive integers without leading zeros, such as v1alpha1 or v2"
	ruleKind     = "must be UpperCamelCase of at most %d characters: an upper-case letter, then letters and digits (a Go identifier), such as ZookeeperCluster"
	rulePlural   = "is too long: its plural, %s, the CRD's resource name, must be at most %d characters"
	ruleKindList = "must not end in List: Kubernetes names the list type <Kind>List and takes a kind ending in List for a list"
	ruleReserved = "must not be %s: the API package declares that name itself"
)

var (
	versionPattern = regexp.MustCompile(`^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$`)
	kindPattern    = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	// reservedKinds are the names register.go declares.
	reservedKinds = []string{"GroupVersion", "AddToScheme"}
)

// Validate reports every value of o the scaffold refuses, each a
// *FlagError, joined (errors.Join); nil when there is none. It reads the
// file system: OpkitPath must hold opkit's modules, and the target
// directory must be absent or empty.
func (o Options) Validate() error {
	_, err := o.check()
	return err
}

// check is Validate, returning the project's wiring to opkit too.
func (o Options) check() (opkitWiring, error) {
	w, opkitErr := o.opkit()
	var out []error
	for _, e := range []*FlagError{
		checkType(o.Type),
		checkName(o.Name),
		checkModule(o.Module),
		checkGroup(o.Group, o.Kind),
		checkVersion(o.version()),
		checkKind(o.Kind),
		checkDir(o.dir()),
		opkitErr,
	} {
		if e != nil {
			out = append(out, e)
		}
	}
	return w, errors.Join(out...)
}

func checkType(t Type) *FlagError {
	switch t {
	case Product, Component:
		return nil
	case "":
		return &FlagError{Flag: "--type", Rule: ruleRequired}
	}
	return &FlagError{Flag: "--type", Value: string(t), Rule: ruleType}
}

func checkName(name string) *FlagError {
	if name == "" {
		return &FlagError{Flag: "--name", Rule: ruleRequired}
	}
	if len(validation.IsDNS1035Label(name)) > 0 || len(name) > MaxNameLength {
		return &FlagError{Flag: "--name", Value: name, Rule: fmt.Sprintf(ruleName, MaxNameLength)}
	}
	return nil
}

func checkModule(path string) *FlagError {
	if path == "" {
		return &FlagError{Flag: "--module", Rule: ruleRequired}
	}
	if err := module.CheckPath(path); err != nil {
		why := err.Error()
		if ipe, ok := errors.AsType[*module.InvalidPathError](err); ok {
			why = ipe.Err.Error()
		}
		return &FlagError{Flag: "--module", Value: path, Rule: fmt.Sprintf(ruleModule, why)}
	}
	return nil
}

func checkGroup(group, kind string) *FlagError {
	switch {
	case group == "":
		return &FlagError{Flag: "--group", Rule: ruleRequired}
	case len(validation.IsDNS1123Subdomain(group)) > 0 || !strings.Contains(group, "."):
		return &FlagError{Flag: "--group", Value: group, Rule: ruleGroup}
	case kind != "" && len(plural(kind))+len(".")+len(group) > validation.DNS1123SubdomainMaxLength:
		return &FlagError{Flag: "--group", Value: group, Rule: ruleCRDName}
	}
	return nil
}

func checkVersion(version string) *FlagError {
	if !versionPattern.MatchString(version) {
		return &FlagError{Flag: "--version", Value: version, Rule: ruleVersion}
	}
	return nil
}

func checkKind(kind string) *FlagError {
	switch {
	case kind == "":
		return &FlagError{Flag: "--kind", Rule: ruleRequired}
	case !kindPattern.MatchString(kind) || len(kind) > MaxKindLength:
		return &FlagError{Flag: "--kind", Value: kind, Rule: fmt.Sprintf(ruleKind, MaxKindLength)}
	case len(plural(kind)) > MaxKindLength:
		return &FlagError{Flag: "--kind", Value: kind, Rule: fmt.Sprintf(rulePlural, plural(kind), MaxKindLength)}
	case strings.HasSuffix(kind, "List"):
		return &FlagError{Flag: "--kind", Value: kind, Rule: ruleKindList}
	}
	for _, r := range reservedKinds {
		if kind == r {
			return &FlagError{Flag: "--kind", Value: kind, Rule: fmt.Sprintf(ruleReserved, r)}
		}
	}
	return nil
}
