package sysfiles

import (
	"context"
	"fmt"
	"strings"
)

// FunctionDocs generates a /functions/ folder with one page per tool
// (/functions/read.md, ...), for models that prefer to look tools up in files. It is not
// in [Default]; register it where wanted:
//
//	sysfiles.Default.Register("functions", sysfiles.FunctionDocs)
func FunctionDocs(ctx context.Context, env *Env) ([]File, error) {
	var out []File
	for _, t := range env.Tools {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n%s\n", t.Name, strings.TrimSpace(t.Description))
		if t.ReadOnly {
			b.WriteString("\nThis tool only reads; it changes nothing.\n")
		}
		out = append(out, File{Path: "functions/" + t.Name + ".md", Content: []byte(b.String())})
	}
	return out, nil
}
