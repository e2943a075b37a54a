package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/yaml"
)

// InputError is a file the commands cannot use: unreadable, not YAML or
// JSON, a document of another kind, an unknown or mistyped field, a
// namespace that contradicts --namespace.
type InputError struct {
	// File is the file as given ("-" for standard input).
	File string
	// Document counts the file's documents from 1; 0 when the whole file
	// is concerned.
	Document int
	// Err says what is wrong, naming the field where there is one.
	Err error
}

// Error names the file and the document.
func (e *InputError) Error() string {
	if e.Document == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s, document %d: %v", e.File, e.Document, e.Err)
}

// Unwrap returns Err.
func (e *InputError) Unwrap() error { return e.Err }

// load reads the resources of the files f names, each decoded strictly
// into the reconciled type and given a namespace. With withOthers, the
// documents of other kinds the scheme knows are decoded as strictly and
// returned apart (an offline rendering's cluster); without, they are
// refused.
func (c *Command) load(f flags, defaultNamespace string, withOthers bool) (resources, others []client.Object, err error) {
	proto, err := c.t.newObject()
	if err != nil {
		return nil, nil, err
	}
	want, err := apiutil.GVKForObject(proto, c.opts.Scheme)
	if err != nil {
		return nil, nil, fmt.Errorf("cli.Options.Scheme does not know %T: %w", proto, err)
	}
	decoder := serializer.NewCodecFactory(c.opts.Scheme, serializer.EnableStrict).UniversalDeserializer()
	for _, file := range f.files {
		objs, err := c.loadFile(file, decoder, want, withOthers, f.namespace, defaultNamespace)
		if err != nil {
			return nil, nil, err
		}
		for _, o := range objs {
			if o.ours {
				resources = append(resources, o.obj)
			} else {
				others = append(others, o.obj)
			}
		}
	}
	if len(resources) == 0 {
		return nil, nil, &InputError{File: f.files.label(), Err: fmt.Errorf("holds no %s", want.Kind)}
	}
	return resources, others, nil
}

// document is one decoded document of a file.
type document struct {
	obj  client.Object
	ours bool // of the reconciled kind
}

// loadFile decodes every document of file.
func (c *Command) loadFile(file string, decoder runtime.Decoder, want schema.GroupVersionKind, withOthers bool,
	flagNamespace, defaultNamespace string) ([]document, error) {
	data, err := readFile(file)
	if err != nil {
		return nil, &InputError{File: file, Err: err}
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []document
	for doc := 1; ; doc++ {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &InputError{File: file, Document: doc, Err: err}
		}
		if len(bytes.TrimSpace(stripComments(raw))) == 0 {
			doc--
			continue
		}
		obj, ours, err := c.decodeOne(decoder, raw, want, withOthers)
		if err != nil {
			return nil, &InputError{File: file, Document: doc, Err: err}
		}
		if err := placeIn(obj, flagNamespace, defaultNamespace); err != nil {
			return nil, &InputError{File: file, Document: doc, Err: err}
		}
		out = append(out, document{obj: obj, ours: ours})
	}
	return out, nil
}

// decodeOne decodes one document, refusing any field its type does not
// have, and reports whether it is of the reconciled kind. A document of
// another kind is refused unless others are allowed and the scheme knows
// its kind.
func (c *Command) decodeOne(decoder runtime.Decoder, raw []byte, want schema.GroupVersionKind, others bool) (client.Object, bool, error) {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(raw, &tm); err != nil {
		return nil, false, err
	}
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	switch {
	case gvk == want:
	case gvk.Kind == "":
		return nil, false, fmt.Errorf("kind %s", gvkString(gvk))
	case !others:
		return nil, false, fmt.Errorf("kind %s is not the one this operator manages (%s)", gvkString(gvk), gvkString(want))
	case !c.opts.Scheme.Recognizes(gvk):
		return nil, false, fmt.Errorf("kind %s is not one this operator knows (its scheme has no such kind)", gvkString(gvk))
	}
	obj, _, err := decoder.Decode(raw, nil, nil)
	if err != nil {
		return nil, false, err // a strict decoding error names each unknown or duplicate field by path
	}
	co, ok := obj.(client.Object)
	if !ok {
		return nil, false, fmt.Errorf("%T is not an object", obj)
	}
	return co, gvk == want, nil
}

func gvkString(gvk schema.GroupVersionKind) string {
	if gvk.Kind == "" {
		return "(none: apiVersion and kind are required)"
	}
	return gvk.Kind + " " + gvk.GroupVersion().String()
}

// placeIn gives obj the namespace --namespace or the context names when
// it names none, and refuses one that contradicts --namespace.
func placeIn(obj client.Object, flagNamespace, defaultNamespace string) error {
	switch ns := obj.GetNamespace(); {
	case ns == "" && flagNamespace != "":
		obj.SetNamespace(flagNamespace)
	case ns == "":
		obj.SetNamespace(defaultNamespace)
	case flagNamespace != "" && ns != flagNamespace:
		return fmt.Errorf("metadata.namespace %q contradicts --namespace %q", ns, flagNamespace)
	}
	if obj.GetName() == "" {
		return errors.New("metadata.name is required")
	}
	return nil
}

func readFile(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(name)
}

// stripComments drops the YAML comment lines of a document, to tell an
// empty document from one with content.
func stripComments(doc []byte) []byte {
	var out []byte
	for line := range bytes.Lines(doc) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' && !bytes.Equal(t, []byte("---")) {
			out = append(out, line...)
		}
	}
	return out
}
