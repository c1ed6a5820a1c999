package mcpserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPackageMaps keeps the package free of package-level maps: a server's state lives
// in its [Server], never in a map the package holds for every server (as the weak maps
// that once led from a *mcp.Server back to its state did). It reads the AST of the
// package's non-test files: a package-level variable whose declared type is a map or a
// sync.Map, or whose value is a map literal, a make of a map, or a call of a function of
// the package that returns a map, fails.
func TestNoPackageMaps(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	returnsMap := map[string]bool{} // functions of the package whose result is a map
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.Results != nil {
				for _, r := range fd.Type.Results.List {
					if isMapType(r.Type) {
						returnsMap[fd.Name.Name] = true
					}
				}
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no source files found")
	}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				bad := vs.Type != nil && isMapType(vs.Type)
				for _, v := range vs.Values {
					bad = bad || isMapValue(v, returnsMap)
				}
				if bad {
					t.Errorf("%s: package-level map %s: keep state in the Server", fset.Position(vs.Pos()), vs.Names[0].Name)
				}
			}
		}
	}
}

// isMapType reports whether e is a map type, sync.Map, or a pointer to either.
func isMapType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.MapType:
		return true
	case *ast.StarExpr:
		return isMapType(e.X)
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		return ok && pkg.Name == "sync" && e.Sel.Name == "Map"
	}
	return false
}

// isMapValue reports whether e makes a map: a literal, a make, a new, or a call of a
// function in returnsMap.
func isMapValue(e ast.Expr, returnsMap map[string]bool) bool {
	switch e := e.(type) {
	case *ast.CompositeLit:
		return e.Type != nil && isMapType(e.Type)
	case *ast.UnaryExpr:
		return isMapValue(e.X, returnsMap)
	case *ast.CallExpr:
		fn, ok := e.Fun.(*ast.Ident)
		if !ok {
			return false
		}
		if (fn.Name == "make" || fn.Name == "new") && len(e.Args) > 0 {
			return isMapType(e.Args[0])
		}
		return returnsMap[fn.Name]
	}
	return false
}

// TestNoPackageMapsCatches checks that the check above sees each kind of map it looks for.
func TestNoPackageMapsCatches(t *testing.T) {
	src := `package p
import "sync"
func m() map[string]any { return nil }
var a sync.Map
var b = map[string]int{}
var c = make(map[int]bool)
var d = m()
var e *sync.Map
var ok = []int{1}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	returnsMap := map[string]bool{"m": true}
	var caught []string
	for _, d := range f.Decls {
		gd, isGen := d.(*ast.GenDecl)
		if !isGen || gd.Tok != token.VAR {
			continue
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		bad := vs.Type != nil && isMapType(vs.Type)
		for _, v := range vs.Values {
			bad = bad || isMapValue(v, returnsMap)
		}
		if bad {
			caught = append(caught, vs.Names[0].Name)
		}
	}
	if got := strings.Join(caught, ","); got != "a,b,c,d,e" {
		t.Errorf("caught %s, want a,b,c,d,e", got)
	}
}
