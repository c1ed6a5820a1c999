package llmfs

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// The Windows path rules. A host workspace on Windows takes paths as people and models
// write them there (C:\Users\me\project\main.go, src\main.go, \\server\share\dir) and turns
// them into the slash form the rest of the core resolves: "\" becomes "/", a drive path
// C:\x becomes /C:/x (the form Open gives the root, filepath.ToSlash under a leading
// slash) and a UNC path \\server\share\x becomes /server/share/x, likewise. What Windows
// would read as something other than it looks is refused, not guessed at:
//   - device and extended paths (\\?\C:\x, \\.\pipe\x) and drive-relative ones (C:x);
//   - an element naming a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9, CONIN$, CONOUT$, with
//     any extension: NUL.txt is the device too);
//   - a colon in an element: file.txt:stream is an alternate data stream of file.txt;
//   - an element ending in a dot or a space, which Windows drops (".env." opens ".env", so
//     a deny rule would not see it);
//   - the characters Windows forbids in names (< > " | ? * and control characters);
//   - below the root, an element shaped like an 8.3 short name (ENV~1, SECRET~2.PEM):
//     Windows opens the long name it abbreviates, so "ENV~1" may be ".env" and a deny
//     rule would not see it. The root itself may be spelled short (temporary directories
//     often are: C:\Users\RUNNER~1\...).
// The root is matched without regard to case, as NTFS does; deny rules fold case on every
// host already (see denyRules). The rules are pure functions, so they are tested on any OS.

// windowsPath rewrites p by the Windows rules, or says why Windows would misread it.
func windowsPath(p string) (string, error) {
	s := strings.ReplaceAll(p, `\`, "/")
	if len(s) >= 3 && s[0] == '/' && s[2] == ':' && isDriveLetter(s[1]) && (len(s) == 3 || s[3] == '/') {
		s = s[1:] // the core's own form, /C:/x, as the workspace shows paths
	}
	var prefix string
	switch {
	case strings.HasPrefix(s, "//?/"), strings.HasPrefix(s, "//./"), strings.HasPrefix(s, "/??/"):
		return "", errors.New("device and extended-length paths (\\\\?\\, \\\\.\\) are not allowed")
	case strings.HasPrefix(s, "//"):
		// UNC: //server/share/rest. The server and share are names like any other.
		prefix, s = "/", strings.TrimLeft(s, "/")
		if strings.Count(s, "/") < 1 || strings.HasPrefix(s, "/") {
			return "", errors.New("a UNC path needs a server and a share: \\\\server\\share\\dir")
		}
	case len(s) >= 2 && s[1] == ':' && isDriveLetter(s[0]):
		if len(s) > 2 && s[2] != '/' {
			return "", errors.New("a drive-relative path (C:name) is not allowed; write C:\\name or a path relative to the root")
		}
		prefix, s = "/"+strings.ToUpper(s[:1])+":", s[2:]
		if s == "" {
			s = "/"
		}
	}
	for elem := range strings.SplitSeq(s, "/") {
		if err := checkWindowsName(elem); err != nil {
			return "", err
		}
	}
	return prefix + s, nil
}

func isDriveLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// checkWindowsName checks one path element by the Windows rules.
func checkWindowsName(elem string) error {
	if elem == "" || elem == "." || elem == ".." {
		return nil
	}
	if strings.ContainsRune(elem, ':') {
		return errors.New("a colon in a name is not allowed: on Windows name:stream is an alternate data stream")
	}
	if i := strings.IndexAny(elem, `<>"|?*`); i >= 0 {
		return errors.New("the characters < > \" | ? * are not allowed in names on Windows")
	}
	for _, r := range elem {
		if r < 32 {
			return errors.New("control characters are not allowed in names on Windows")
		}
	}
	if last, _ := utf8.DecodeLastRuneInString(elem); last == '.' || last == ' ' {
		return errors.New("a name may not end in a dot or a space: Windows drops them, so the name would mean another file")
	}
	if isReservedWindowsName(elem) {
		return errors.New("the name is reserved for a device on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9), with or without an extension")
	}
	return nil
}

// isReservedWindowsName reports whether elem names a device: the part before the first dot,
// without trailing spaces, is a device name in any case. COM and LPT take 1-9 and the
// superscript digits ¹ ² ³, which Windows also treats as devices.
func isReservedWindowsName(elem string) bool {
	base, _, _ := strings.Cut(elem, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if n, ok := strings.CutPrefix(base, "COM"); ok {
		return isDeviceDigit(n)
	}
	if n, ok := strings.CutPrefix(base, "LPT"); ok {
		return isDeviceDigit(n)
	}
	return false
}

func isDeviceDigit(s string) bool {
	return len(s) == 1 && '1' <= s[0] && s[0] <= '9' || s == "¹" || s == "²" || s == "³"
}

// foldRoot returns abs with a leading root that differs from root only in case replaced by
// root itself, so that c:/users/me/project/x lies within C:/Users/me/project.
func foldRoot(root, abs string) string {
	if len(abs) < len(root) || !strings.EqualFold(abs[:len(root)], root) {
		return abs
	}
	if len(abs) > len(root) && abs[len(root)] != '/' && root != "/" {
		return abs
	}
	return root + abs[len(root):]
}

// resolveWindows applies the Windows rules, then the portable ones.
func (w *Workspace) resolveWindows(p string) (resolved, error) {
	if p == "" || strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) {
		return w.resolveSlash(p) // the portable rules say what is wrong
	}
	q, err := windowsPath(p)
	if err != nil {
		return resolved{}, errorf(CodeInvalidPath, p, "%v: %s", err, p)
	}
	below := q
	if strings.HasPrefix(q, "/") {
		q = foldRoot(w.root, q)
		below = strings.TrimPrefix(q, w.root)
	}
	for elem := range strings.SplitSeq(below, "/") {
		if isShortName(elem) {
			return resolved{}, errorf(CodeInvalidPath, p, "%s looks like an 8.3 short name, which Windows may read as another file's long name; use the long name: %s", elem, p)
		}
	}
	r, err := w.resolveSlash(q)
	if err != nil {
		return resolved{}, err
	}
	r.arg = p
	return r, nil
}

// isShortName reports whether elem has the shape of an 8.3 short name Windows generates:
// up to six characters, a tilde and a number, and an extension of up to three.
func isShortName(elem string) bool {
	base, ext, hasExt := strings.Cut(elem, ".")
	if hasExt && (len(ext) > 3 || strings.Contains(ext, ".")) {
		return false
	}
	i := strings.LastIndexByte(base, '~')
	if i < 0 || i > 6 || i == len(base)-1 {
		return false
	}
	for _, c := range []byte(base[i+1:]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return !strings.ContainsAny(base[:i], "~. ")
}
