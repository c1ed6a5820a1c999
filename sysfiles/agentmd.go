package sysfiles

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/llmfs/llmfs"
)

//go:embed agent.md.tmpl
var agentTemplate string

// agentTmpl is parsed on first use, not at init, which every start of the binary pays
// (issue 40).
var agentTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("AGENT.md").Parse(agentTemplate))
})

// AgentPath is where [AgentMD] writes, relative to the workspace root.
const AgentPath = "AGENT.md"

// DefaultSummaryTime bounds how long AGENT.md's summary of the tree may take; see
// [Options.SummaryTime].
const DefaultSummaryTime = 2 * time.Second

// notableNames are files worth a model's first look, by lowercased name.
var notableNames = []string{
	"readme", "readme.md", "readme.txt", "readme.rst", "agents.md", "claude.md", "contributing.md",
	"license", "license.md", "go.mod", "package.json", "cargo.toml", "pyproject.toml", "setup.py",
	"requirements.txt", "pom.xml", "build.gradle", "cmakelists.txt", "makefile", "dockerfile",
	"docker-compose.yml", "compose.yaml", "gemfile", "composer.json", "deno.json", "tsconfig.json",
}

// AgentMD generates /AGENT.md: what the tree holds (top-level entries with their file
// counts, notable files such as README or go.mod) and what the agent can do, written for a
// model. It sees the tree as the agent's tools do: the files counted are those find and
// grep see (denied, hidden and ignored ones left out), and what it says the agent can do
// is what the tools given in [Env.Tools] can (the rtc dialect has no delete, whatever the
// mode). The summary walk is one search of the tree, bounded by [Env.SummaryTime]; when
// that runs out the summary says the tree was too large to count.
func AgentMD(ctx context.Context, env *Env) ([]File, error) {
	ws := env.Workspace
	pol := ws.Settings().Policy
	can := capabilities(pol.Mode, env.Tools)
	data := agentData{
		Virtual:  env.Virtual,
		Relaxed:  ws.Settings().Relaxed,
		Root:     ws.Root(),
		Mode:     string(pol.Mode),
		CanEdit:  can.edit,
		ModeText: can.text(pol.Mode),
	}
	if len(pol.Deny) > 0 {
		data.Deny = "`" + strings.Join(pol.Deny, "`, `") + "`"
	}
	q := pol.Quota
	if env.Quota != (llmfs.Quota{}) {
		q = env.Quota
	}
	data.Quota = quotaText(q)
	for _, t := range env.Tools {
		data.Tools = append(data.Tools, agentTool{Name: t.Name, Summary: firstSentence(t.Description)})
	}
	budget := env.SummaryTime
	if budget <= 0 {
		budget = DefaultSummaryTime
	}
	if err := summarize(ctx, ws, env.Virtual, budget, &data); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := agentTmpl().Execute(&b, data); err != nil {
		return nil, err
	}
	return []File{{Path: AgentPath, Content: b.Bytes()}}, nil
}

// abilities are what the agent's tools can do.
type abilities struct{ change, edit, delete bool }

// capabilities derives what the agent can do from its tools, or, when none are given,
// from the mode alone. A tool changes files unless it is read-only; edit and delete are
// known by the tool's name (file_edit, edit; file_delete, delete).
func capabilities(mode llmfs.Mode, ts []Tool) abilities {
	if len(ts) == 0 {
		return abilities{change: mode.Allows(llmfs.OpWrite), edit: mode.Allows(llmfs.OpEdit), delete: mode.Allows(llmfs.OpDelete)}
	}
	var a abilities
	for _, t := range ts {
		if t.ReadOnly {
			continue
		}
		a.change = true
		for _, w := range strings.FieldsFunc(strings.ToLower(t.Name), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			switch w {
			case "edit":
				a.edit = true
			case "delete", "remove", "rm":
				a.delete = true
			}
		}
	}
	return a
}

func (a abilities) text(mode llmfs.Mode) string {
	switch {
	case !a.change:
		return "You can read, list and search files, but not change them."
	case a.delete:
		return "You can read, search, create, change and delete files."
	case mode.Allows(llmfs.OpDelete):
		return "You can read, search, create and change files; none of your tools deletes files."
	}
	return "You can read, search, create and change files, but not delete them."
}

type agentData struct {
	Virtual  bool
	Relaxed  bool
	Root     string
	Mode     string
	ModeText string
	CanEdit  bool
	Deny     string
	Quota    string
	Summary  string
	Top      []topEntry
	Notable  []string
	Tools    []agentTool
}

type topEntry struct {
	Name  string
	Dir   bool
	Count string
	Size  string
}

type agentTool struct{ Name, Summary string }

// maxNotable and maxTop bound the lists of AGENT.md.
const (
	maxNotable = 20
	maxTop     = 40
)

// summarize describes the tree as the agent's tools see it: the top level as a listing
// shows it, and the files below as find and grep see them, from one search of the tree
// (linear in its size; see package search) bounded by budget.
func summarize(ctx context.Context, ws *llmfs.Workspace, virtual bool, budget time.Duration, data *agentData) error {
	top, err := ws.List(ctx, ".")
	if err != nil {
		return err
	}
	show := func(rel string) string {
		if virtual {
			return "/" + rel
		}
		return rel
	}
	fctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	found, err := ws.Find(fctx, "**", llmfs.FindOptions{})
	counted := err == nil
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if fctx.Err() == nil {
			return err
		}
		// Out of time: describe the top level only.
	}
	perTop := map[string]int{}
	dirs := map[string]bool{}
	var paths []string
	files := 0
	if counted {
		for _, f := range found.Files {
			p := strings.TrimPrefix(f.Path, "/")
			if p == AgentPath {
				continue
			}
			files++
			paths = append(paths, p)
			first, _, nested := strings.Cut(p, "/")
			if nested {
				perTop[first]++
			}
			for d := path.Dir(p); d != "."; d = path.Dir(d) {
				if dirs[d] {
					break
				}
				dirs[d] = true
			}
		}
	}
	for _, e := range top {
		if e.Name == AgentPath {
			continue
		}
		if e.Type == llmfs.TypeDirectory {
			te := topEntry{Name: show(e.Name) + "/", Dir: true}
			switch n := perTop[e.Name]; {
			case !counted:
				te.Count = "not counted"
			case n == 0:
				te.Count = "no files that find or grep see (empty, hidden or ignored)"
			default:
				te.Count = plural(n, "file")
			}
			data.Top = append(data.Top, te)
			continue
		}
		data.Top = append(data.Top, topEntry{Name: show(e.Name), Size: sizeText(e.Size)})
		if slices.Contains(notableNames, strings.ToLower(e.Name)) {
			data.Notable = append(data.Notable, show(e.Name))
		}
	}
	// Notable files one level down, in path order so the file does not change with
	// modification times.
	slices.Sort(paths)
	for _, p := range paths {
		if strings.Count(p, "/") == 1 && slices.Contains(notableNames, strings.ToLower(path.Base(p))) {
			data.Notable = append(data.Notable, show(p))
		}
	}
	if len(data.Top) > maxTop {
		rest := len(data.Top) - maxTop
		data.Top = append(data.Top[:maxTop], topEntry{Name: fmt.Sprintf("... and %d more", rest), Dir: true, Count: "see ls"})
	}
	if len(data.Notable) > maxNotable {
		data.Notable = data.Notable[:maxNotable]
	}
	switch {
	case !counted:
		data.Summary = "The workspace is large: its files could not be counted in the time allowed."
	case len(data.Top) == 0:
		data.Summary = "The workspace is empty (apart from this file)."
	default:
		data.Summary = fmt.Sprintf("The workspace holds %s in %s that find and grep see (not counting this file; hidden and ignored files are left out).",
			plural(files, "file"), plural(len(dirs), "directory"))
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return plural(int(n), "byte")
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

func quotaText(q llmfs.Quota) string {
	var parts []string
	if q.MaxBytes > 0 {
		parts = append(parts, "at most "+sizeText(q.MaxBytes)+" in all")
	}
	if q.MaxFileBytes > 0 {
		parts = append(parts, "at most "+sizeText(q.MaxFileBytes)+" per file")
	}
	if q.MaxFiles > 0 {
		parts = append(parts, fmt.Sprintf("at most %d files and directories", q.MaxFiles))
	}
	return strings.Join(parts, ", ")
}

// firstSentence returns the first sentence of a tool description.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
