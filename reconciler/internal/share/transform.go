package share

import toolscache "k8s.io/client-go/tools/cache"

// After returns a cache transform that runs next (when not nil) and then
// f on what next returned, in place; an error of next is returned as it
// is, and f does not run.
func After(next toolscache.TransformFunc, f func(any)) toolscache.TransformFunc {
	return func(in any) (any, error) {
		if next != nil {
			out, err := next(in)
			if err != nil {
				return nil, err
			}
			in = out
		}
		f(in)
		return in, nil
	}
}
