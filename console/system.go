package console

import (
	"net/http"

	"github.com/llmfs/llmfs"
	"github.com/llmfs/llmfs/sysfiles"
)

// systemFile is a system file's state as the API shows it.
type systemFile struct {
	Path string `json:"path"`
	// State is "generated" (what llmfs made, unedited), "edited" (changed by someone
	// since), or "missing".
	State string `json:"state"`
}

func (a *api) systemFiles(w http.ResponseWriter, r *http.Request) {
	out := []systemFile{}
	if a.system == nil {
		reply(w, out)
		return
	}
	paths, err := sysfiles.Paths(r.Context(), a.ws, a.system)
	if err != nil {
		failErr(w, err)
		return
	}
	for _, p := range paths {
		if a.ws.Denied(p) {
			continue
		}
		f := systemFile{Path: p, State: "edited"}
		if _, err := a.ws.Read(r.Context(), p, llmfs.ReadOptions{Limit: 1}); llmfs.CodeOf(err) == llmfs.CodeFileNotFound {
			f.State = "missing"
		} else if name, err := a.ws.StoreName(p); err == nil {
			if gen, err := sysfiles.Generated(r.Context(), a.ws.Store(), name); err == nil && gen {
				f.State = "generated"
			}
		}
		out = append(out, f)
	}
	reply(w, out)
}

func (a *api) restoreSystem(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Path string `json:"path"`
	}
	if !decode(w, r, &req) {
		return
	}
	if a.system == nil {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "this workspace has no system files")
		return
	}
	if err := sysfiles.Restore(r.Context(), a.ws, req.Path, a.system); err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]string{"path": req.Path})
}
