// Package ignored words, for both reconcilers, what the object engine
// reports about a field the API server does not let change after creation
// (a StatefulSet's claim templates, a Service's cluster IP): the value the
// object keeps, the value asked for, and what the user can do about it.
//
//	for _, c := range result.Changes {
//		if msg := ignored.Message(c, "the spec"); msg != "" {
//			warn(msg)
//		}
//	}
package ignored
