// Package observe holds what both reconcilers use to be observed: the
// logger of a context with a fallback, metrics registered once per process
// on controller-runtime's registry, and panics recovered with their stack.
package observe
