package authentication

import "errors"

// joinErrs joins errs, keeping a single error as it is so its type is the
// answer's type.
func joinErrs(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}
