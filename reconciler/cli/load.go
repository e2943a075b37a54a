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

// load reads the resources of the file f names, each decoded strictly
// into the reconciled type and given a namespace.
func (c *Command) load(f flags, defaultNamespace string) ([]client.Object, error) {
	data, err := readFile(f.file)
	if err != nil {
		return nil, &InputError{File: f.file, Err: err}
	}
	proto, err := c.t.newObject()
	if err != nil {
		return nil, err
	}
	want, err := apiutil.GVKForObject(proto, c.opts.Scheme)
	if err != nil {
		return nil, fmt.Errorf("cli.Options.Scheme does not know %T: %w", proto, err)
	}
	decoder := serializer.NewCodecFactory(c.opts.Scheme, serializer.EnableStrict).UniversalDeserializer()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []client.Object
	for doc := 1; ; doc++ {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &InputError{File: f.file, Document: doc, Err: err}
		}
		if len(bytes.TrimSpace(stripComments(raw))) == 0 {
			doc--
			continue
		}
		obj, err := decodeOne(decoder, raw, want)
		if err != nil {
			return nil, &InputError{File: f.file, Document: doc, Err: err}
		}
		if err := placeIn(obj, f.namespace, defaultNamespace); err != nil {
			return nil, &InputError{File: f.file, Document: doc, Err: err}
		}
		out = append(out, obj)
	}
	if len(out) == 0 {
		return nil, &InputError{File: f.file, Err: fmt.Errorf("holds no %s", want.Kind)}
	}
	return out, nil
}

// decodeOne decodes one document, refusing another kind and any field the
// type does not have.
func decodeOne(decoder runtime.Decoder, raw []byte, want schema.GroupVersionKind) (client.Object, error) {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(raw, &tm); err != nil {
		return nil, err
	}
	if got := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind); got != want {
		return nil, fmt.Errorf("kind %s is not the one this operator manages (%s)", gvkString(got), gvkString(want))
	}
	obj, _, err := decoder.Decode(raw, nil, nil)
	if err != nil {
		return nil, err // a strict decoding error names each unknown or duplicate field by path
	}
	co, ok := obj.(client.Object)
	if !ok {
		return nil, fmt.Errorf("%T is not an object", obj)
	}
	return co, nil
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
