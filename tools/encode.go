package tools

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v as JSON for a model to read: like [json.Marshal] but without escaping
// <, > and & (as \u003c, \u003e, \u0026), which only matters in HTML and costs a model
// tokens on every comparison in code. Every JSON text of this package is made by it.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
