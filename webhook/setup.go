package webhook

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// SetupWithManager registers the defaulting and the validating webhook on
// mgr's webhook server, at MutatePath and ValidatePath of the kind (the
// paths controller-runtime derives). mgr's scheme must know the kind.
func (w *Webhook[CR]) SetupWithManager(mgr manager.Manager) error {
	var (
		_ admission.Validator[CR] = w
		_ admission.Defaulter[CR] = w
	)
	return builder.WebhookManagedBy(mgr, w.opts.Reconciler.For).
		WithValidator(w).
		WithDefaulter(w).
		Complete()
}

// MutatePath is the path SetupWithManager serves the defaulting webhook of
// gvk at.
func MutatePath(gvk schema.GroupVersionKind) string { return "/mutate-" + pathSuffix(gvk) }

// ValidatePath is the path SetupWithManager serves the validating webhook
// of gvk at.
func ValidatePath(gvk schema.GroupVersionKind) string { return "/validate-" + pathSuffix(gvk) }

func pathSuffix(gvk schema.GroupVersionKind) string {
	return strings.ReplaceAll(gvk.Group, ".", "-") + "-" + gvk.Version + "-" + strings.ToLower(gvk.Kind)
}

// ConfigurationOptions describes where the webhooks of one kind are served
// and for which resource. Kind, Resource and Service are required.
type ConfigurationOptions struct {
	// Kind is the product kind's group, version and kind.
	Kind schema.GroupVersionKind
	// Resource is the kind's plural resource name, such as
	// "kafkaclusters".
	Resource string
	// Service is the Service in front of the operator's webhook server;
	// its Path is set per webhook.
	Service admissionregistrationv1.ServiceReference
	// CABundle is the PEM CA of the webhook server's certificate. Empty
	// leaves it to a CA injector.
	CABundle []byte
	// Name names both configurations. Empty means "<resource>.<group>".
	Name string
}

// Configurations returns the mutating and validating webhook
// configurations of the kind: CREATE and UPDATE of the resource (not its
// status), at the paths SetupWithManager serves, failing closed, without
// side effects (dry runs are checked too), admission review v1.
func Configurations(o ConfigurationOptions) (*admissionregistrationv1.MutatingWebhookConfiguration, *admissionregistrationv1.ValidatingWebhookConfiguration) {
	name := o.Name
	if name == "" {
		name = o.Resource + "." + o.Kind.Group
	}
	rules := []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule: admissionregistrationv1.Rule{
			APIGroups: []string{o.Kind.Group}, APIVersions: []string{o.Kind.Version},
			Resources: []string{o.Resource}, Scope: ptr.To(admissionregistrationv1.NamespacedScope),
		},
	}}
	client := func(path string) admissionregistrationv1.WebhookClientConfig {
		svc := o.Service.DeepCopy()
		svc.Path = ptr.To(path)
		return admissionregistrationv1.WebhookClientConfig{Service: svc, CABundle: append([]byte(nil), o.CABundle...)}
	}
	mutating := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: "default." + name, ClientConfig: client(MutatePath(o.Kind)), Rules: rules,
			FailurePolicy: ptr.To(admissionregistrationv1.Fail), SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: ptr.To[int32](10),
		}},
	}
	validating := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "validate." + name, ClientConfig: client(ValidatePath(o.Kind)), Rules: rules,
			FailurePolicy: ptr.To(admissionregistrationv1.Fail), SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: ptr.To[int32](10),
		}},
	}
	return mutating, validating
}
