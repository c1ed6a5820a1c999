package sysfiles

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"text/template"

	"github.com/llmfs/llmfs"
)

//go:embed agent.md.tmpl
var agentTemplate string

var agentTmpl = template.Must(template.New("AGENT.md").Parse(agentTemplate))

// AgentPath is where [AgentMD] writes, relative to the workspace root.
const AgentPath = "AGENT.md"

// maxWalk bounds how many entries AGENT.md's summary visits, so a huge tree opens fast.
const maxWalk = 20000

// notableNames are files worth a model's first look, by lowercased name.
var notableNames = []string{
	"readme", "readme.md", "readme.txt", "readme.rst", "agents.md", "claude.md", "contributing.md",
	"license", "license.md", "go.mod", "package.json", "cargo.toml", "pyproject.toml", "setup.py",
	"requirements.txt", "pom.xml", "build.gradle", "cmakelists.txt", "makefile", "dockerfile",
	"docker-compose.yml", "compose.yaml", "gemfile", "composer.json", "deno.json", "tsconfig.json",
}

// AgentMD generates /AGENT.md: what the tree holds (top-level entries with their file
// counts, notable files such as README or go.mod) and the tools the workspace offers under
// its mode, written for a model. It sees the tree as the agent does: denied paths are
// left out.
func AgentMD(ctx context.Context, env *Env) ([]File, error) {
	ws := env.Workspace
	pol := ws.Policy()
	data := agentData{
		Virtual: env.Virtual,
		Relaxed: ws.Relaxed(),
		Root:    ws.Root(),
		Mode:    string(pol.Mode),
		CanEdit: pol.Mode.Allows(llmfs.OpEdit),
	}
	switch pol.Mode {
	case llmfs.ReadOnly:
		data.ModeText = "You can read, list and search files, but not change them."
	case llmfs.ReadWrite:
		data.ModeText = "You can read, search, create and change files, but not delete them."
	default:
		data.ModeText = "You can read, search, create, change and delete files."
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
	if err := summarize(ctx, ws, env.Virtual, &data); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := agentTmpl.Execute(&b, data); err != nil {
		return nil, err
	}
	return []File{{Path: AgentPath, Content: b.Bytes()}}, nil
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

// summarize walks the tree through the workspace, as the agent would see it.
func summarize(ctx context.Context, ws *llmfs.Workspace, virtual bool, data *agentData) error {
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
	visited := 0
	var files, dirs int
	var count func(dir string) int // files below dir
	count = func(dir string) int {
		es, err := ws.List(ctx, dir)
		if err != nil {
			return 0
		}
		n := 0
		for _, e := range es {
			visited++
			if visited > maxWalk {
				return n
			}
			p := path.Join(dir, e.Name)
			if e.Type == llmfs.TypeDirectory {
				dirs++
				n += count(p)
				continue
			}
			files++
			n++
			if strings.Count(p, "/") <= 1 && slices.Contains(notableNames, strings.ToLower(e.Name)) {
				data.Notable = append(data.Notable, show(p))
			}
		}
		return n
	}
	for _, e := range top {
		if e.Name == AgentPath {
			continue
		}
		visited++
		if e.Type == llmfs.TypeDirectory {
			dirs++
			n := count(e.Name)
			data.Top = append(data.Top, topEntry{Name: show(e.Name) + "/", Dir: true, Count: plural(n, "file")})
			continue
		}
		files++
		data.Top = append(data.Top, topEntry{Name: show(e.Name), Size: sizeText(e.Size)})
		if slices.Contains(notableNames, strings.ToLower(e.Name)) {
			data.Notable = append(data.Notable, show(e.Name))
		}
	}
	const maxTop = 40
	if len(data.Top) > maxTop {
		rest := len(data.Top) - maxTop
		data.Top = append(data.Top[:maxTop], topEntry{Name: fmt.Sprintf("... and %d more", rest), Dir: true, Count: "see ls"})
	}
	if len(data.Notable) > 20 {
		data.Notable = data.Notable[:20]
	}
	switch {
	case files == 0 && dirs == 0:
		data.Summary = "The workspace is empty (apart from this file)."
	case visited > maxWalk:
		data.Summary = fmt.Sprintf("The workspace is large: more than %d entries (only part was counted).", maxWalk)
	default:
		data.Summary = fmt.Sprintf("The workspace holds %s in %s (not counting this file).", plural(files, "file"), plural(dirs, "directory"))
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
