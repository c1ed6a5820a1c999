package tools

// builtinTypes are the types of Claude's built-in tool declarations, by the name of the
// anthropic dialect's tool that executes them. Declared so ({"type": type, "name": name}),
// the tool comes with the schema and system prompt Claude was trained on, and its calls
// (view, create, str_replace, insert; memory's delete and rename) are ones the dialect
// takes as they stand. text_editor_20250728 is the Claude 4 editor, which has no
// undo_edit: the dialect keeps undo_edit for its own declaration.
var builtinTypes = map[string]string{
	"str_replace_based_edit_tool": "text_editor_20250728",
	"memory":                      "memory_20250818",
}
