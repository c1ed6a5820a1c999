package tools

import "testing"

// ErrorOf of no error is no error object, not a panic (found by a review).
func TestErrorOfNil(t *testing.T) {
	if got := ErrorOf(nil); got != (ErrorObject{}) {
		t.Fatalf("ErrorOf(nil) = %+v", got)
	}
}
