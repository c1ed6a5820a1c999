package llmfs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmfs/llmfs/store/mem"
)

// TestWindowsPathRules checks the Windows path rules, which are pure functions, on any OS
// (issue 20, item 1: drive letters, separators, UNC, reserved names, streams, trailing dots
// and spaces).
func TestWindowsPathRules(t *testing.T) {
	ok := map[string]string{
		`C:\Users\me\project\main.go`: "/C:/Users/me/project/main.go",
		`c:/Users/me`:                 "/C:/Users/me",
		`C:\`:                         "/C:/",
		`/C:/Users/me`:                "/C:/Users/me",
		`C:`:                          "/C:/",
		`src\main.go`:                 "src/main.go",
		`src/./a\..\b.txt`:            "src/./a/../b.txt",
		`\\server\share\dir\x.txt`:    "/server/share/dir/x.txt",
		`.env`:                        ".env",
		`..\up`:                       "../up",
		`CONFIG.txt`:                  "CONFIG.txt",
		`console.log`:                 "console.log",
		`COM10`:                       "COM10",
		`LPT0.txt`:                    "LPT0.txt",
		`nulls`:                       "nulls",
		`a.b.c`:                       "a.b.c",
		`naïve.txt`:                   "naïve.txt",
	}
	for in, want := range ok {
		got, err := windowsPath(in)
		if err != nil || got != want {
			t.Errorf("windowsPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		`\\?\C:\Windows`:       "device",
		`\\.\pipe\x`:           "device",
		`//?/C:/x`:             "device",
		`C:relative`:           "drive-relative",
		`\\server`:             "UNC",
		`CON`:                  "reserved",
		`con`:                  "reserved",
		`dir\NUL`:              "reserved",
		`NUL.txt`:              "reserved",
		`aux.tar.gz`:           "reserved",
		`PRN `:                 "end in a dot or a space",
		`COM1`:                 "reserved",
		`lpt9.log`:             "reserved",
		`COM¹`:                 "reserved",
		`CONOUT$`:              "reserved",
		`file.txt:stream`:      "alternate data stream",
		`file.txt::$DATA`:      "alternate data stream",
		`dir\C:x`:              "alternate data stream",
		`.env.`:                "end in a dot or a space",
		`secret.pem `:          "end in a dot or a space",
		`dir.\x`:               "end in a dot or a space",
		`what?.txt`:            "not allowed in names",
		`a|b`:                  "not allowed in names",
		"tab\there":            "control characters",
		`C:\Users\me\<x>`:      "not allowed in names",
		`C:\Users\me\x.txt. .`: "end in a dot or a space",
	}
	for in, want := range bad {
		got, err := windowsPath(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("windowsPath(%q) = %q, %v; want an error saying %q", in, got, err, want)
		}
	}
}

// TestWindowsRulesInWorkspace checks that a workspace under the Windows rules takes
// backslashes and drive paths, matches the root without regard to case, keeps deny rules
// in force whatever the case, and refuses what Windows would misread, changing nothing.
func TestWindowsRulesInWorkspace(t *testing.T) {
	ctx := context.Background()
	w := New(mem.New(), &Options{Root: "C:/Users/me/project"})
	if w.bad != nil {
		t.Fatal(w.bad)
	}
	w.windows = true
	if w.Root() != "/C:/Users/me/project" {
		t.Fatalf("root = %q", w.Root())
	}
	if _, err := w.Write(ctx, `src\main.go`, "package main\n", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{`src\main.go`, `C:\Users\me\project\src\main.go`, `c:\users\ME\Project\src\main.go`, `/C:/Users/me/project/src/main.go`} {
		res, err := w.Read(ctx, p, ReadOptions{})
		if err != nil || !strings.Contains(res.Content, "package main") {
			t.Errorf("Read(%q) = %+v, %v", p, res, err)
		}
	}
	if _, err := w.Read(ctx, `C:\Users\me\project-evil\x`, ReadOptions{}); !IsCode(err, CodeInvalidPath) {
		t.Errorf("a sibling of the root: err = %v, want INVALID_PATH", err)
	}
	if _, err := w.Read(ctx, `D:\Users\me\project\src\main.go`, ReadOptions{}); !IsCode(err, CodeInvalidPath) {
		t.Errorf("another drive: err = %v, want INVALID_PATH", err)
	}
	for _, p := range []string{`NUL`, `src\con.txt`, `src\main.go:secret`, `.ENV.`, `.env `} {
		if _, err := w.Write(ctx, p, "x", WriteOptions{}); !IsCode(err, CodeInvalidPath) {
			t.Errorf("Write(%q): err = %v, want INVALID_PATH", p, err)
		}
	}
	if _, err := w.Write(ctx, `.ENV`, "x", WriteOptions{}); !IsCode(err, CodePermissionDenied) {
		t.Errorf("Write(.ENV): err = %v, want the deny rule **/.env to apply", err)
	}
	entries, err := w.List(ctx, ".")
	if err != nil || len(entries) != 1 || entries[0].Name != "src" {
		t.Errorf("List = %+v, %v; want only src", entries, err)
	}
}

// TestWindowsShortNamesRefused: on Windows "ENV~1" can open ".env" (its 8.3 short name),
// past the deny rule that names .env. Short-name shapes below the root are refused; a root
// spelled short, as Windows temporary directories are, still works.
func TestWindowsShortNamesRefused(t *testing.T) {
	for name, want := range map[string]bool{
		"ENV~1": true, "env~12": true, "SECRET~1.PEM": true, "PROGRA~1": true, "A~1.TXT": true,
		"~1": true, "notes~draft": false, "file~.txt": false, "backup~1.tar.gz": false,
		"longname~1": false, "a~1b": false, "x.txt~1": false, "main.go": false, ".env": false,
	} {
		if got := isShortName(name); got != want {
			t.Errorf("isShortName(%q) = %v, want %v", name, got, want)
		}
	}

	ctx := context.Background()
	s := mem.New()
	w := New(s, &Options{Root: "C:/Users/RUNNER~1/project"})
	if w.bad != nil {
		t.Fatal(w.bad)
	}
	w.windows = true
	if _, err := w.Write(ctx, `notes~draft.md`, "ok\n", WriteOptions{}); err != nil {
		t.Errorf("a name with a tilde that is no short name: %v", err)
	}
	if _, err := w.Read(ctx, `C:\Users\RUNNER~1\project\notes~draft.md`, ReadOptions{}); err != nil {
		t.Errorf("an absolute path through a root spelled short: %v", err)
	}
	for _, p := range []string{`ENV~1`, `src\SECRET~1.PEM`, `C:\Users\RUNNER~1\project\ENV~1`, `a\PROGRA~1\x`} {
		if _, err := w.Write(ctx, p, "x", WriteOptions{}); !IsCode(err, CodeInvalidPath) || !strings.Contains(err.Error(), "short name") {
			t.Errorf("Write(%q): err = %v, want INVALID_PATH naming the short name", p, err)
		}
		if _, err := w.Read(ctx, p, ReadOptions{}); !IsCode(err, CodeInvalidPath) {
			t.Errorf("Read(%q): err = %v, want INVALID_PATH", p, err)
		}
	}
	entries, err := w.List(ctx, ".")
	if err != nil || len(entries) != 1 {
		t.Errorf("List = %+v, %v; want only notes~draft.md", entries, err)
	}
}

// IsCode reports whether err is an *Error with code c.
func IsCode(err error, c Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == c
}
