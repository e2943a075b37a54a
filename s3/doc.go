// Package s3 resolves the S3 bucket a product's cluster resource names —
// inline, or by reference to an S3Bucket whose connection is in turn inline
// or an S3Connection — and wires it into the product: the Hadoop S3A
// properties, the secret-operator volumes for the credentials and the CA,
// and the shell exports that hand the credentials to the process without
// ever writing them into a ConfigMap.
//
//	bucket, err := s3.Resolve(ctx, reader, cr.Namespace, cr.Spec.Warehouse, "spec.warehouse", s3.ResolveOptions{})
//	if err != nil {
//		return err // ErrInvalid naming spec.warehouse…; ErrRequeue while a referenced object does not exist yet
//	}
//	set := secretvolume.New(secretvolume.Options{})
//	w := bucket.Wire(set, s3.WireOptions{})
//	files["core-site.xml"] = w.HadoopProperties
//	command := strings.Join(append(w.Exports, "exec bin/start"), " && ")
//	sts, err := reconciler.BuildStatefulSet(bc).WithInjectors(set).Build()
//
// A source that names nothing is the user's mistake (failure.ErrInvalid,
// never retried hot); a referenced S3Bucket or S3Connection that does not
// exist yet is a *NotFoundError of class failure.ErrRequeue that keeps
// apierrors.IsNotFound working; any other read error is classified by
// apierr.Classify.
package s3
