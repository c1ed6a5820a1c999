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
	// since), "missing", or "off" (llmfs does not make it in this workspace).
	State string `json:"state"`
	// Hint, for a file that is off, says why and how to turn it on.
	Hint string `json:"hint,omitempty"`
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
		if a.ws.Paths().Denied(p) {
			continue
		}
		f := systemFile{Path: p, State: "edited"}
		if a.systemOff != "" {
			// Whatever the file holds is the person's own, not llmfs's to judge.
			f.State, f.Hint = "off", a.systemOff
		} else if _, err := a.ws.Read(r.Context(), p, llmfs.ReadOptions{Limit: 1}); llmfs.CodeOf(err) == llmfs.CodeFileNotFound {
			f.State = "missing"
		} else if name, err := a.ws.Paths().StoreName(p); err == nil {
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
	if a.systemOff != "" {
		fail(w, http.StatusBadRequest, string(llmfs.CodeInvalidArgument), "system files are off in this workspace: "+a.systemOff)
		return
	}
	if err := sysfiles.Restore(r.Context(), a.ws, req.Path, a.system); err != nil {
		failErr(w, err)
		return
	}
	reply(w, map[string]string{"path": req.Path})
}
