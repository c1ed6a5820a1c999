package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/tools"
)

// maxDialectTokens bounds what each dialect's definitions cost a model: the name,
// description and input schema of all its tools, in tokens counted as chars/4.
const maxDialectTokens = 1500

// Issue 32.14: every dialect's definitions fit in 1,500 tokens. The test prints each
// dialect's size and its largest tools, so a description that grows shows where.
func TestDefinitionsBudget(t *testing.T) {
	for _, d := range tools.Dialects {
		defs, err := tools.Definitions(d, llmfs.Full)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, def := range defs {
			b, _ := json.Marshal(map[string]any{"name": def.Name, "description": def.Description, "input_schema": def.InputSchema})
			total += len(b)
			t.Logf("  %s/%s: %d chars", d, def.Name, len(b))
		}
		t.Logf("%s: %d tools, %d chars = %d tokens (budget %d)", d, len(defs), total, total/4, maxDialectTokens)
		if total/4 > maxDialectTokens {
			t.Errorf("%s: definitions of %d tokens, over the budget of %d", d, total/4, maxDialectTokens)
		}
	}
}
