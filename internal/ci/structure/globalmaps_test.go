package structure

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoStorePackageMaps: a store keeps what it holds per Store in the Store, not in a
// package-level map keyed by Store, which keeps every Store ever used (store/idb's
// journals did; issue 34). It reads the packages' non-test files, whatever their build
// tags: a package-level variable of map or sync.Map type, or with a map literal or a make
// of a map as its value, fails.
func TestNoStorePackageMaps(t *testing.T) {
	root := moduleRoot(t)
	for _, dir := range []string{"store/idb"} {
		names, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(names) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		fset := token.NewFileSet()
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					bad := vs.Type != nil && isMap(vs.Type)
					for _, v := range vs.Values {
						bad = bad || isMapValue(v)
					}
					if bad {
						t.Errorf("%s: package-level map %s: keep it in the Store", fset.Position(vs.Pos()), vs.Names[0].Name)
					}
				}
			}
		}
	}
}

// isMap reports whether e is a map type, sync.Map, or a pointer to either.
func isMap(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.MapType:
		return true
	case *ast.StarExpr:
		return isMap(e.X)
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		return ok && pkg.Name == "sync" && e.Sel.Name == "Map"
	}
	return false
}

// isMapValue reports whether e makes a map: a map literal, or make of a map.
func isMapValue(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.CompositeLit:
		return e.Type != nil && isMap(e.Type)
	case *ast.UnaryExpr:
		return isMapValue(e.X)
	case *ast.CallExpr:
		if fn, ok := e.Fun.(*ast.Ident); ok && fn.Name == "make" && len(e.Args) > 0 {
			return isMap(e.Args[0])
		}
	}
	return false
}
