package urlnorm

import "errors"

// IsUnescaped tells whether err, an error of [Loc] or [Link] in strict
// mode, is about a character that a URL has to give percent-encoded: a
// space, a control character or one of " < > \ ^ ` { | }.
func IsUnescaped(err error) bool {
	return errors.Is(err, errSpace) || errors.Is(err, errControl) || errors.Is(err, errForbiddenChar)
}
