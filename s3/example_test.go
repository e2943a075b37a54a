package s3_test

import (
	"context"
	"fmt"

	"k8s.io/utils/ptr"

	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/s3"
	"github.com/opkit-dev/opkit/secretvolume"
)

// An inline bucket on a MinIO endpoint with credentials from a secret
// class: what a product writes into core-site.xml and its start command.
// With a reference, pass the manager's client as the reader.
func Example() {
	src := s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{
		BucketName: "warehouse",
		Connection: s3v1alpha1.ConnectionSource{Inline: &s3v1alpha1.ConnectionSpec{
			Host: "minio.storage", Port: ptr.To[int32](9000), AccessStyle: s3v1alpha1.AccessStylePath,
			Credentials: &secretclassv1alpha1.Volume{SecretClass: "minio-credentials"},
		}},
	}}
	bucket, err := s3.Resolve(context.Background(), nil, "data", src, "spec.warehouse", s3.ResolveOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	set := secretvolume.New(secretvolume.Options{})
	w := bucket.Wire(set, s3.WireOptions{})
	fmt.Println(w.URL, w.HadoopProperties["fs.s3a.endpoint"], w.HadoopProperties["fs.s3a.path.style.access"])
	fmt.Println(w.HadoopProperties["fs.s3a.access.key"])
	fmt.Println(w.Exports[0])
	fmt.Println(set.Names())

	_, err = s3.Resolve(context.Background(), nil, "data", s3v1alpha1.BucketSource{}, "spec.warehouse", s3.ResolveOptions{})
	fmt.Println(err)
	// Output:
	// s3a://warehouse/ http://minio.storage:9000 true
	// ${env.AWS_ACCESS_KEY_ID}
	// export AWS_ACCESS_KEY_ID="$(cat /opkit/secret/s3-credentials/accessKey)"
	// [s3-credentials]
	// spec.warehouse: names no bucket: set inline or reference
}
