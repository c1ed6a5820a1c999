package search

import (
	"slices"
	"strings"
)

// types maps a file type name, as in ripgrep's --type, to the base-name globs of its
// files. The table follows `rg --type-list`; a few newer extensions are added.
var types = map[string][]string{
	"asm":        {"*.S", "*.asm", "*.s"},
	"c":          {"*.[chH]", "*.[chH].in", "*.cats"},
	"clojure":    {"*.clj", "*.cljc", "*.cljs", "*.cljx"},
	"cmake":      {"*.cmake", "CMakeLists.txt"},
	"config":     {"*.cfg", "*.conf", "*.config", "*.ini"},
	"cpp":        {"*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"},
	"cs":         {"*.cs"},
	"csharp":     {"*.cs"},
	"css":        {"*.css", "*.scss"},
	"csv":        {"*.csv"},
	"dart":       {"*.dart"},
	"diff":       {"*.diff", "*.patch"},
	"docker":     {"*Dockerfile*"},
	"elixir":     {"*.eex", "*.ex", "*.exs"},
	"erlang":     {"*.erl", "*.hrl"},
	"fish":       {"*.fish"},
	"go":         {"*.go"},
	"gradle":     {"*.gradle"},
	"groovy":     {"*.gradle", "*.groovy"},
	"h":          {"*.h", "*.hpp"},
	"haskell":    {"*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"},
	"html":       {"*.ejs", "*.htm", "*.html"},
	"java":       {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"js":         {"*.js", "*.jsx", "*.vue", "*.mjs", "*.cjs"},
	"json":       {"*.json", "composer.lock"},
	"jsonl":      {"*.jsonl"},
	"julia":      {"*.jl"},
	"kotlin":     {"*.kt", "*.kts"},
	"less":       {"*.less"},
	"lock":       {"*.lock", "package-lock.json"},
	"lua":        {"*.lua"},
	"make":       {"*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in"},
	"markdown":   {"*.markdown", "*.md", "*.mdown", "*.mkdn"},
	"md":         {"*.markdown", "*.md", "*.mdown", "*.mkdn"},
	"nix":        {"*.nix"},
	"objc":       {"*.h", "*.m"},
	"ocaml":      {"*.ml", "*.mli", "*.mll", "*.mly"},
	"perl":       {"*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"},
	"php":        {"*.php", "*.php3", "*.php4", "*.php5", "*.phtml"},
	"proto":      {"*.proto"},
	"protobuf":   {"*.proto"},
	"ps":         {"*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"},
	"py":         {"*.py", "*.pyi"},
	"python":     {"*.py", "*.pyi"},
	"r":          {"*.R", "*.Rmd", "*.Rnw", "*.r"},
	"rst":        {"*.rst"},
	"ruby":       {"*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"},
	"rust":       {"*.rs"},
	"sass":       {"*.sass", "*.scss"},
	"scala":      {"*.sbt", "*.scala"},
	"sh":         {"*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh", ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
	"sql":        {"*.psql", "*.sql"},
	"svg":        {"*.svg"},
	"swift":      {"*.swift"},
	"tex":        {"*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"},
	"toml":       {"*.toml", "Cargo.lock"},
	"ts":         {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"txt":        {"*.txt"},
	"typescript": {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"xml":        {"*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"},
	"yaml":       {"*.yaml", "*.yml"},
	"zig":        {"*.zig"},
	"zsh":        {"*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"},
}

// Types returns the names of the built-in file types, sorted.
func Types() []string {
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// TypeGlobs returns the base-name globs of the file type name, and whether it is known.
func TypeGlobs(name string) ([]string, bool) {
	g, ok := types[strings.ToLower(name)]
	return slices.Clone(g), ok
}
