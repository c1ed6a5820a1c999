// Package strictjson decodes tool arguments exactly: every value must have the JSON type
// its parameter declares, integers must be written as integers (1, not 1.0 or "1"), and
// unknown or duplicated keys are refused.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Kind is the JSON type of a parameter.
type Kind int

// The kinds.
const (
	String Kind = iota
	Integer
	Boolean
	Array   // an array of objects, each checked against Items
	Strings // an array of strings (may be empty)
	Ints    // an array of integers, each >= Min (may be empty)
)

// Param declares one parameter of a tool.
type Param struct {
	Name     string
	Kind     Kind
	Required bool
	Min      int64 // for Integer: the smallest value allowed
	Enum     []string
	Items    []Param // for Array: the fields of each object
}

// Object holds decoded arguments by name. Absent optional parameters are missing, and so are
// null ones that are not strings (null for a string is refused).
type Object map[string]any

// String returns the string argument name, or def if absent.
func (o Object) String(name, def string) string {
	if v, ok := o[name].(string); ok {
		return v
	}
	return def
}

// Int returns the integer argument name, or def if absent.
func (o Object) Int(name string, def int64) int64 {
	if v, ok := o[name].(int64); ok {
		return v
	}
	return def
}

// Has reports whether argument name was given.
func (o Object) Has(name string) bool { _, ok := o[name]; return ok }

// Bool returns the boolean argument name, or def if absent.
func (o Object) Bool(name string, def bool) bool {
	if v, ok := o[name].(bool); ok {
		return v
	}
	return def
}

// Objects returns the array-of-objects argument name.
func (o Object) Objects(name string) []Object {
	v, _ := o[name].([]Object)
	return v
}

// StringList returns the array-of-strings argument name.
func (o Object) StringList(name string) []string {
	v, _ := o[name].([]string)
	return v
}

// IntList returns the array-of-integers argument name.
func (o Object) IntList(name string) []int64 {
	v, _ := o[name].([]int64)
	return v
}

// Error is an argument that does not fit its declaration.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// intRE is compiled on first use, not at init, which every start of the binary pays
// (issue 40).
var intRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`) })

// Decode parses data, a JSON object (empty data or null count as {}), against params.
func Decode(data []byte, params []Param) (Object, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	raw, err := rawObject(data)
	if err != nil {
		return nil, err
	}
	return decodeObject(raw, params, "")
}

// rawObject splits a JSON object into its members, refusing duplicate keys and trailing data.
func rawObject(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, errorf("arguments are not valid JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errorf("arguments must be a JSON object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errorf("arguments are not valid JSON: %v", err)
		}
		key := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errorf("arguments are not valid JSON: %v", err)
		}
		if _, dup := out[key]; dup {
			return nil, errorf("parameter %q is given twice", key)
		}
		out[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, errorf("arguments are not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errorf("arguments have data after the JSON object")
	}
	return out, nil
}

func decodeObject(raw map[string]json.RawMessage, params []Param, prefix string) (Object, error) {
	known := map[string]bool{}
	out := Object{}
	for _, p := range params {
		known[p.Name] = true
		v, ok := raw[p.Name]
		// null for an optional number, flag or list is the default, as models often write
		// it. Not for a string: a null path or pattern is a value the model failed to fill
		// in, and taking the default (the root, for a path) would act where it never meant to.
		if ok && string(v) == "null" && !p.Required && p.Kind != String {
			ok = false
		}
		if !ok {
			if p.Required {
				return nil, errorf("missing required parameter %q", prefix+p.Name)
			}
			continue
		}
		val, err := decodeValue(v, p, prefix)
		if err != nil {
			return nil, err
		}
		out[p.Name] = val
	}
	var unknown []string
	for k := range raw {
		if !known[k] {
			unknown = append(unknown, strconv.Quote(prefix+k))
		}
	}
	if len(unknown) > 0 {
		names := make([]string, len(params))
		for i, p := range params {
			names[i] = p.Name
		}
		return nil, errorf("unknown parameter %s (accepted: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	return out, nil
}

func decodeValue(v json.RawMessage, p Param, prefix string) (any, error) {
	name := prefix + p.Name
	switch p.Kind {
	case String:
		var s string
		if v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return nil, errorf("parameter %q must be a string, got %s", name, clip(v))
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return nil, errorf("parameter %q must be one of %s, got %q", name, strings.Join(p.Enum, ", "), s)
		}
		return s, nil
	case Integer:
		if !intRE().Match(v) {
			return nil, errorf("parameter %q must be a JSON integer such as 1 (not a float, string or other type), got %s", name, clip(v))
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return nil, errorf("parameter %q is out of range: %s", name, clip(v))
		}
		if n < p.Min {
			return nil, errorf("parameter %q must be >= %d, got %d", name, p.Min, n)
		}
		return n, nil
	case Boolean:
		switch string(v) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, errorf("parameter %q must be true or false, got %s", name, clip(v))
	case Array:
		var items []json.RawMessage
		if v[0] != '[' || json.Unmarshal(v, &items) != nil {
			return nil, errorf("parameter %q must be an array", name)
		}
		if len(items) == 0 {
			return nil, errorf("parameter %q must not be empty", name)
		}
		out := make([]Object, len(items))
		for i, it := range items {
			raw, err := rawObject(it)
			if err != nil {
				return nil, errorf("%s[%d]: %v", name, i, err)
			}
			if out[i], err = decodeObject(raw, p.Items, fmt.Sprintf("%s[%d].", name, i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case Strings, Ints:
		var items []json.RawMessage
		if v[0] != '[' || json.Unmarshal(v, &items) != nil {
			return nil, errorf("parameter %q must be an array", name)
		}
		strs := make([]string, 0, len(items))
		ints := make([]int64, 0, len(items))
		for i, it := range items {
			item := Param{Name: fmt.Sprintf("%s[%d]", p.Name, i), Kind: String, Min: p.Min}
			if p.Kind == Ints {
				item.Kind = Integer
			}
			x, err := decodeValue(it, item, prefix)
			if err != nil {
				return nil, err
			}
			if p.Kind == Ints {
				ints = append(ints, x.(int64))
			} else {
				strs = append(strs, x.(string))
			}
		}
		if p.Kind == Ints {
			return ints, nil
		}
		return strs, nil
	}
	return nil, errors.New("strictjson: unknown kind")
}

func clip(v []byte) string {
	if len(v) > 40 {
		return string(v[:40]) + "..."
	}
	return string(v)
}
