package console

import (
	"context"
	"net/http"
	"path"
	"sort"
	"strconv"

	"github.com/llmfs/llmfs"
)

// maxPage caps a page of /api/list: a page is what the page renders next, not the directory.
const maxPage = 5000

// listPage is one page of a directory's entries, for GET /api/list with limit.
type listPage struct {
	Entries []llmfs.Entry `json:"entries"`
	// Next is the cursor of the next page, "" after the last one.
	Next string `json:"next"`
	// Total counts the directory's entries, every page's.
	Total int `json:"total"`
}

// list answers GET /api/list: the whole directory as an array, or, with limit, a page of it
// as a [listPage]. A page starts after the entry named by cursor (the last name of the page
// before): entries come sorted by name, so a name made or removed between two pages neither
// repeats an entry nor skips one that stays. A big directory's first rows then come without
// the whole listing (480 KB of JSON for 10,000 files) being sent and parsed first.
func (a *api) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("limit") {
		es, err := a.ws.List(r.Context(), pathParam(r))
		if err != nil {
			failErr(w, err)
			return
		}
		if es == nil {
			es = []llmfs.Entry{}
		}
		reply(w, es)
		return
	}
	// The names and types of every entry (one read of the directory), then the sizes of
	// this page's files only: a page costs its own stats, not the directory's.
	es, err := a.ws.ListNames(r.Context(), pathParam(r))
	if err != nil {
		failErr(w, err)
		return
	}
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit < 1 {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "limit: a number of entries, at least 1")
		return
	}
	limit = min(limit, maxPage)
	from := 0
	if c := q.Get("cursor"); c != "" {
		from = sort.Search(len(es), func(i int) bool { return es[i].Name > c })
	}
	page := listPage{Entries: es[from:min(from+limit, len(es))], Total: len(es)}
	a.sizes(r.Context(), pathParam(r), page.Entries)
	if end := from + len(page.Entries); end < len(es) {
		page.Next = es[end-1].Name
	}
	reply(w, page)
}

// sizes fills in the sizes of the files among es, the entries of the directory dir. A file
// that went since it was listed keeps size 0: the listing is a moment's view anyway.
func (a *api) sizes(ctx context.Context, dir string, es []llmfs.Entry) {
	name, err := a.ws.Paths().StoreName(dir)
	if err != nil {
		return
	}
	for i, e := range es {
		if e.Type != llmfs.TypeFile {
			continue
		}
		if fi, err := a.ws.Store().Stat(ctx, path.Join(name, e.Name)); err == nil {
			es[i].Size = fi.Size()
		}
	}
}
