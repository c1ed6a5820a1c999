package tools

import (
	"fmt"

	"github.com/llmfs/llmfs"
	sj "github.com/llmfs/llmfs/internal/strictjson"
)

// A listing is paged as a read is: a page holds at most the workspace's MaxReadBytes
// (256 KiB by default) of JSON, and says where the next begins (truncated, next_offset),
// so that a directory of 100,000 files answers in pages a model and a client can take
// rather than in one result of megabytes.

// offsetParam is the list tools' offset.
func offsetParam() param { return integer("offset", "First entry, from 1.", 1) }

// pageFields are the fields a paged listing adds to its result.
func pageFields() []field {
	return []field{
		may("truncated", outBool("More entries follow; continue at next_offset.")),
		may("next_offset", outInt("First entry of the next page.")),
	}
}

// entryBytes is about what an entry takes in the JSON of a listing.
func entryBytes(e llmfs.Entry, sizes bool) int {
	if !sizes {
		return len(e.Name) + 4 // "name",
	}
	return len(e.Name) + len(e.Type) + 40 // {"name":"","type":"","size":N},
}

// listPage returns the entries from the 1-based offset whose JSON fits in max bytes (at
// least one, so every page moves on), and the offset of the next page, 0 when this one
// reaches the end.
func listPage(entries []llmfs.Entry, offset, max int, sizes bool) ([]llmfs.Entry, int) {
	start := min(offset-1, len(entries))
	used := 0
	for i := start; i < len(entries); i++ {
		used += entryBytes(entries[i], sizes)
		if used > max && i > start {
			return entries[start:i], i + 1
		}
	}
	return entries[start:], 0
}

// pageOf pages entries by the call's offset and records the page in out.
func (tb *Toolbox) pageOf(a sj.Object, entries []llmfs.Entry, sizes bool, out map[string]any) []llmfs.Entry {
	offset := int(a.Int("offset", 1))
	page, next := listPage(entries, offset, tb.ws.Settings().Limits.MaxReadBytes, sizes)
	if next > 0 {
		out["truncated"], out["next_offset"] = true, next
	}
	if note := pastEndNote(offset, len(entries)); note != "" {
		out["note"] = note
	}
	return page
}

// pastEndNote says a listing began past its last entry, so that an empty page does not
// read as an empty directory; "" when it did not.
func pastEndNote(offset, total int) string {
	if offset <= total || offset == 1 {
		return ""
	}
	unit := "entries"
	if total == 1 {
		unit = "entry"
	}
	return fmt.Sprintf("offset %d is past the end; the listing has %d %s", offset, total, unit)
}
