// Package authentication resolves the authentication classes a product's
// cluster resource refers to (api/authentication/v1alpha1.ClassReference)
// and wires each into the product: the secret-operator volumes of its
// certificates and bind credentials, the OIDC issuer, scopes and client
// credentials, the LDAP address.
//
//	classes, err := authentication.Resolve(ctx, reader, cr.Spec.Authentication, "spec.authentication",
//		authentication.ResolveOptions{Supported: []authenticationv1alpha1.ProviderKind{
//			authenticationv1alpha1.ProviderLDAP, authenticationv1alpha1.ProviderOIDC}})
//	if err != nil {
//		return err // ErrInvalid naming spec.authentication[0]…; ErrRequeue while a class does not exist yet
//	}
//	set := secretvolume.New(secretvolume.Options{})
//	for i, c := range classes {
//		w := c.Wire(set, fmt.Sprintf("auth-%d", i))
//		// w.LDAP, w.OIDC …
//	}
//
// A reference naming no class, naming one twice, a class of a provider the
// product does not support, or an OIDC class without the product's client
// options is the user's mistake (failure.ErrInvalid, naming the field); a
// class that does not exist yet is a *NotFoundError of class
// failure.ErrRequeue that keeps apierrors.IsNotFound working.
package authentication
