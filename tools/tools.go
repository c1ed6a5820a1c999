// Package tools turns a [llmfs.Workspace] into tools a language model can call: JSON Schema
// definitions with descriptions written for a model, and a strict dispatcher.
//
// Dialects name the same operations differently. "agentool" (the default) has
// file_read, file_write, file_edit, directory_create, directory_list, file_delete,
// file_move and file_copy, with host paths. "rtc" has ls, read, write and edit (find and
// grep join it with the search engine), with virtual paths where "/" is the workspace root,
// numbered lines in reads, and read-before-edit on by default; it never offers deleting.
// "codex", "anthropic" and "gemini" follow the vendors' own file tools (codex.go,
// anthropic.go, gemini.go). Every dialect has patch (patch.go); [Format] renders
// definitions in each vendor API's shape. Every dialect's read returns an image file as an
// image (image.go).
//
// Arguments are decoded strictly: an unknown tool, a missing or unknown parameter, or a
// value of the wrong JSON type (1.0 or "1" for an integer) is refused with
// INVALID_ARGUMENT before anything is touched.
package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/internal/strictjson"
)

// Dialect names a tool vocabulary.
type Dialect string

// The dialects.
const (
	Agentool  Dialect = "agentool"
	RTC       Dialect = "rtc"
	Codex     Dialect = "codex"     // codex.go
	Anthropic Dialect = "anthropic" // anthropic.go
	Gemini    Dialect = "gemini"    // gemini.go
)

// Dialects lists the known dialects.
var Dialects = []Dialect{Agentool, RTC, Codex, Anthropic, Gemini}

// Definition describes one tool for a model.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	// OutputSchema is the JSON Schema of the result object a success returns (MCP's
	// outputSchema): a closed object.
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	// Hints for clients that show or gate tool use (MCP annotations).
	ReadOnly    bool `json:"read_only"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	// Grammar, when set, is a Lark grammar of the tool's one text argument, for hosts that
	// offer free-form (custom) tools; Call then also takes that text in place of JSON.
	Grammar string `json:"grammar,omitempty"`
	// Builtin, when set, is the type of the vendor's built-in declaration of this tool
	// (builtin.go), which [Format] "anthropic-builtin" sends in place of the schema.
	Builtin string `json:"builtin,omitempty"`
}

// tool is one entry of a dialect's table.
type tool struct {
	name        string
	op          llmfs.Op // the policy operation it needs
	description string
	params      []param
	output      map[string]any // JSON Schema of the result object (output.go)
	readOnly    bool
	destructive bool
	idempotent  bool
	freeform    bool // takes its one string parameter as raw text too (see Definition.Grammar)
	hidden      bool // callable, but not offered: an older name of another tool
	run         func(ctx context.Context, tb *Toolbox, args strictjson.Object) (any, error)
	decls       []strictjson.Param // the decoder's form of params, made once by init
}

// builtTables are every dialect's tools and history tools, each tool with its decoder
// declarations, made once on first use rather than at init: building them (the
// parameters, the output schemas' maps) cost every start of the binary about a
// millisecond, commands that never offer a tool included (issue 40).
type builtTables struct {
	base, history map[Dialect][]tool
}

var tables = sync.OnceValue(func() builtTables {
	b := builtTables{
		base:    map[Dialect][]tool{Agentool: agentoolTools(), RTC: rtcTools(), Codex: codexTools(), Anthropic: anthropicTools(), Gemini: geminiTools()},
		history: historyTables(),
	}
	for _, m := range []map[Dialect][]tool{b.base, b.history} {
		for _, tt := range m {
			for i := range tt {
				t := &tt[i]
				t.decls = make([]strictjson.Param, len(t.params))
				for j, p := range t.params {
					t.decls[j] = p.decl()
				}
			}
		}
	}
	return b
})

// param is a parameter with its description for the schema.
type param struct {
	strictjson.Param
	description string
	items       []param
	hidden      bool // decoded, but left out of the schema: an older name of another parameter
}

func (p param) decl() strictjson.Param {
	d := p.Param
	for _, it := range p.items {
		d.Items = append(d.Items, it.decl())
	}
	return d
}

// table returns the tools of dialect d, with the history tools when history is set.
func table(d Dialect, history bool) ([]tool, error) {
	tt, err := baseTable(d)
	if err != nil || !history {
		return tt, err
	}
	if d == "" {
		d = Agentool
	}
	return append(slices.Clip(tt), tables().history[d]...), nil
}

func baseTable(d Dialect) ([]tool, error) {
	if d == "" {
		d = Agentool
	}
	if tt, ok := tables().base[d]; ok {
		return tt, nil
	}
	return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: fmt.Sprintf("unknown dialect %q (known: agentool, rtc, codex, anthropic, gemini)", d)}
}

// Definitions returns the tools of dialect d that work mode m allows, in a stable order.
// A tool the mode forbids is left out, so a model is never offered it.
func Definitions(d Dialect, m llmfs.Mode) ([]Definition, error) {
	return DefinitionsFor(d, m, nil)
}

// DefinitionsFor is [Definitions] for a toolbox made with opts: with [Options.History]
// the history tools are among them. A nil opts means the defaults.
func DefinitionsFor(d Dialect, m llmfs.Mode, opts *Options) ([]Definition, error) {
	tt, err := table(d, opts != nil && opts.History)
	if err != nil {
		return nil, err
	}
	return definitions(tt, m), nil
}

func definitions(tt []tool, m llmfs.Mode) []Definition {
	var out []Definition
	for _, t := range tt {
		if !m.Allows(t.op) || t.hidden {
			continue
		}
		def := Definition{
			Name:         t.name,
			Description:  t.description,
			InputSchema:  schema(t.params),
			OutputSchema: outputSchema(t.output),
			ReadOnly:     t.readOnly,
			Destructive:  t.destructive,
			Idempotent:   t.idempotent,
			Builtin:      builtinTypes[t.name],
		}
		if t.freeform {
			def.Grammar = CodexPatchGrammar
		}
		out = append(out, def)
	}
	return out
}

// Toolbox runs the tools of one dialect on one workspace. It is safe for concurrent use.
// For read-before-edit, give each agent session its own workspace session
// ([llmfs.NewSession]) and its own Toolbox.
type Toolbox struct {
	ws       *llmfs.Workspace
	dialect  Dialect
	tools    []tool
	absolute bool     // show search results as absolute paths ([Options.AbsolutePaths])
	memories *Toolbox // the memory tool's, when the notes live elsewhere ([Options.Memories])
}

// Options configure a [Toolbox]. A nil *Options means the defaults.
type Options struct {
	// RequireRead switches read-before-edit on or off (see [llmfs.Options.RequireRead]).
	// Nil means the dialect's default: on in rtc; in agentool, as the workspace says,
	// which is off unless the workspace was opened with RequireRead.
	RequireRead *bool
	// AbsolutePaths makes find and grep show absolute paths instead of paths relative to
	// the root. A server that serves several directories sets it for every directory but
	// the first, against which relative paths resolve: so each path a tool returns leads
	// back to the same file when given to another tool. The rtc dialect ignores it (its
	// paths are virtual).
	AbsolutePaths bool
	// History adds the history tools, history and undo, to the dialect's (history.go):
	// they show the workspace's journal and take changes back. Off by default.
	History bool
	// Memories, in the anthropic dialect, is where the memory tool keeps its notes: the
	// workspace's root is what the model sees as /memories. Nil: the /memories directory
	// of the toolbox's own workspace (on a host directory, inside the person's tree).
	Memories *llmfs.Workspace
}

// New returns a toolbox for ws in dialect d with the default [Options].
func New(ws *llmfs.Workspace, d Dialect) (*Toolbox, error) {
	return NewWithOptions(ws, d, nil)
}

// NewWithOptions returns a toolbox for ws in dialect d.
//
// In the rtc dialect the toolbox works on a virtual view of ws ([llmfs.VirtualPaths]).
// When the read-before-edit setting differs from ws's, the toolbox gets a session of its own
// ([llmfs.RequireRead]); otherwise it shares ws's session, so reads made through
// ws count for edits made through the toolbox.
func NewWithOptions(ws *llmfs.Workspace, d Dialect, opts *Options) (*Toolbox, error) {
	tt, err := table(d, opts != nil && opts.History)
	if err != nil {
		return nil, err
	}
	if d == "" {
		d = Agentool
	}
	requireRead := ws.Settings().RequireRead
	switch d {
	case RTC:
		requireRead = true
		ws = ws.With(llmfs.VirtualPaths())
	case Anthropic:
		ws = ws.With(llmfs.VirtualPaths())
	}
	if opts != nil && opts.RequireRead != nil {
		requireRead = *opts.RequireRead
	}
	if requireRead != ws.Settings().RequireRead {
		ws = ws.With(llmfs.RequireRead(requireRead))
	}
	tb := &Toolbox{ws: ws, dialect: d, tools: tt}
	if opts != nil {
		tb.absolute = opts.AbsolutePaths && !IsVirtual(d)
		if opts.Memories != nil && d == Anthropic {
			mw := opts.Memories.With(llmfs.VirtualPaths())
			tb.memories = &Toolbox{ws: mw.With(llmfs.RequireRead(requireRead)), dialect: d, tools: tt}
		}
	}
	return tb, nil
}

// Workspace returns the workspace the toolbox works on: in the rtc dialect a virtual view,
// and possibly a session of its own (see [NewWithOptions]).
func (tb *Toolbox) Workspace() *llmfs.Workspace { return tb.ws }

// Dialect returns the toolbox's dialect.
func (tb *Toolbox) Dialect() Dialect { return tb.dialect }

// Definitions returns the definitions of the tools the workspace's mode allows.
func (tb *Toolbox) Definitions() []Definition {
	return definitions(tb.tools, tb.ws.Settings().Mode)
}

// Call runs the tool name with JSON arguments args and returns its JSON result. A failure is
// an *[llmfs.Error]; [ErrorJSON] renders it for a model.
func (tb *Toolbox) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	res, err := tb.CallResult(ctx, name, args)
	if err != nil {
		return nil, err
	}
	return res.JSON, nil
}

// A Result is a successful call's outcome in the two forms a client may show a model.
type Result struct {
	// JSON is the result object, as [Toolbox.Call] returns it.
	JSON json.RawMessage
	// Text is what a model reads: JSON itself, except where the dialect's model expects
	// plain text. In the rtc dialect the text of a read is its numbered lines and a short
	// trailing note, as Claude Code's Read tool returns them; the text of agentool's
	// directory_list with names_only is the names, one a line. In the codex, anthropic
	// and gemini dialects it is what the vendor's own tool prints (vendortext.go): Codex's
	// 'L<n>: ' lines, Claude's numbered lines, Gemini CLI's plain content, a line for an
	// edit.
	Text string
	// Images are the images the call read, in order: a read of a PNG, JPEG, GIF or WebP
	// file returns it as an image (image.go). JSON holds each in base64 as well; Text and
	// Structured do not.
	Images []*llmfs.Image
	// Structured is the result object without the images' base64 data, for a face that
	// sends Images on their own (the MCP server's structured content). Nil when the call
	// read no image: then it is JSON.
	Structured json.RawMessage
}

// CallResult is [Toolbox.Call] returning both forms of the result.
func (tb *Toolbox) CallResult(ctx context.Context, name string, args json.RawMessage) (*Result, error) {
	i := slices.IndexFunc(tb.tools, func(t tool) bool { return t.name == name })
	if i < 0 {
		var names []string
		for _, d := range tb.Definitions() {
			names = append(names, d.Name)
		}
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument,
			Msg: fmt.Sprintf("unknown tool %q; the tools are %s", name, strings.Join(names, ", "))}
	}
	t := tb.tools[i]
	if !tb.ws.Settings().Mode.Allows(t.op) {
		return nil, tb.modeDenied(name)
	}
	if t.freeform {
		args = freeformArgs(args, t.params[0].Name)
	}
	obj, err := strictjson.Decode(args, t.decls)
	if err != nil {
		return nil, &llmfs.Error{Code: llmfs.CodeInvalidArgument, Msg: name + ": " + err.Error(), Err: err}
	}
	out, err := safeRun(ctx, tb, t, obj)
	if err != nil {
		return nil, err
	}
	b, err := Marshal(out)
	if err != nil {
		return nil, err
	}
	res := &Result{JSON: b, Text: string(b)}
	switch r := out.(type) {
	case textResult:
		res.Text = r.text
	case imageResult:
		if res.Structured, err = Marshal(r.lean); err != nil {
			return nil, err
		}
		res.Text, res.Images = string(res.Structured), r.images
	default:
		if text, ok := renderText(tb.dialect, name, b); ok {
			res.Text = text // vendortext.go
		}
	}
	return res, nil
}

// textResult is the result of a tool whose model reads text rather than JSON: obj is
// the result object, text what the model reads.
type textResult struct {
	obj  any
	text string
}

func (r textResult) MarshalJSON() ([]byte, error) { return Marshal(r.obj) }

// modeDenied explains to a model why the tool name is not available and which tools are.
func (tb *Toolbox) modeDenied(name string) error {
	mode := tb.ws.Settings().Mode
	var names []string
	for _, d := range tb.Definitions() {
		names = append(names, d.Name)
	}
	avail := strings.Join(names, ", ")
	var msg string
	if mode == llmfs.ReadOnly {
		msg = fmt.Sprintf("the workspace is read-only; %s is not available and nothing can be changed. Use %s to look at files", name, avail)
	} else {
		msg = fmt.Sprintf("the workspace is %s; %s is not available (deleting needs the full mode). The tools of this workspace are %s", mode, name, avail)
	}
	return &llmfs.Error{Code: llmfs.CodePermissionDenied, Msg: msg}
}

// safeRun runs a tool and turns a panic into an error, so no input can crash a server.
func safeRun(ctx context.Context, tb *Toolbox, t tool, obj strictjson.Object) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &llmfs.Error{Code: llmfs.CodeIO, Msg: fmt.Sprintf("internal error in %s: %v", t.name, r)}
		}
	}()
	out, err = t.run(ctx, tb, obj)
	if err != nil && llmfs.CodeOf(err) == "" {
		err = &llmfs.Error{Code: llmfs.CodeIO, Msg: err.Error(), Err: err}
	}
	return out, err
}

// ErrorObject is the JSON form of a failed call.
type ErrorObject struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ErrorOf returns the JSON form of err; the zero ErrorObject for a nil err.
func ErrorOf(err error) ErrorObject {
	if err == nil {
		return ErrorObject{}
	}
	var e *llmfs.Error
	if errors.As(err, &e) {
		msg := e.Msg
		if msg == "" {
			msg = string(e.Code)
		}
		return ErrorObject{Code: string(e.Code), Message: msg}
	}
	return ErrorObject{Code: string(llmfs.CodeIO), Message: err.Error()}
}

// ErrorJSON renders err as {"code": ..., "message": ...}.
func ErrorJSON(err error) json.RawMessage {
	b, _ := Marshal(ErrorOf(err))
	return b
}

// schema renders params as a JSON Schema object.
func schema(params []param) json.RawMessage {
	b, _ := Marshal(schemaObject(params))
	return b
}

func schemaObject(params []param) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range params {
		if p.hidden {
			continue
		}
		s := map[string]any{"description": p.description}
		switch p.Kind {
		case strictjson.String:
			s["type"] = "string"
			if len(p.Enum) > 0 {
				s["enum"] = p.Enum
			}
		case strictjson.Integer:
			s["type"] = "integer"
			if p.Min != 0 { // 0 goes without saying for a count, and costs every call's tokens
				s["minimum"] = p.Min
			}
		case strictjson.Boolean:
			s["type"] = "boolean"
		case strictjson.Array:
			s["type"] = "array"
			s["minItems"] = 1
			s["items"] = schemaObject(p.items)
		case strictjson.Strings:
			s["type"] = "array"
			s["items"] = map[string]any{"type": "string"}
		case strictjson.Ints:
			s["type"] = "array"
			s["items"] = map[string]any{"type": "integer"}
		}
		props[p.Name] = s
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// freeformArgs wraps the raw text a host sends to a free-form tool as the JSON object of
// its one parameter; JSON objects pass unchanged.
func freeformArgs(args json.RawMessage, name string) json.RawMessage {
	if t := strings.TrimSpace(string(args)); strings.HasPrefix(t, "{") || t == "" || t == "null" {
		return args
	}
	b, _ := json.Marshal(map[string]string{name: string(args)})
	return b
}

// IsVirtual reports whether dialect d works on virtual paths, where "/" is the workspace
// root and ".." is refused: rtc and anthropic.
func IsVirtual(d Dialect) bool { return d == RTC || d == Anthropic }
