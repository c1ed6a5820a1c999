//go:build !js && !wasip1

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Issue 17.6: llmfs call prints a read of an image as its JSON result, the bytes in
// base64 with the MIME type, in every dialect.
func TestCallReadsImage(t *testing.T) {
	dir := t.TempDir()
	jpg, err := os.ReadFile("../../tools/testdata/images/pixel.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "photo.jpg"), jpg, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"agentool", "file_read", `{"path":"photo.jpg"}`},
		{"rtc", "read", `{"path":"/photo.jpg"}`},
		{"codex", "read_file", `{"file_path":"photo.jpg"}`},
		{"anthropic", "str_replace_based_edit_tool", `{"command":"view","path":"/photo.jpg"}`},
		{"gemini", "read_file", `{"file_path":"photo.jpg"}`},
	} {
		code, stdout, stderr := runCLI(t, "call", "--root", dir, "--dialect", c[0], c[1], c[2])
		var res struct {
			Type     string `json:"type"`
			MIMEType string `json:"mime_type"`
			Data     string `json:"data"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil {
			t.Fatalf("%s: exit %d, %s %s", c[0], code, stdout, stderr)
		}
		if b, _ := base64.StdEncoding.DecodeString(res.Data); res.Type != "image" || res.MIMEType != "image/jpeg" || !bytes.Equal(b, jpg) {
			t.Errorf("%s: %.200s", c[0], stdout)
		}
	}
}
