package sqlstore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode"
)

// A Token describes an access token: it grants one workspace, in one mode, to whoever
// holds its secret. The secret itself is never stored; only its SHA-256 is.
type Token struct {
	ID        string // public, names the token in lists and revocations
	Workspace string // the workspace it grants
	Name      string // a label for people; may be empty
	Mode      string // the work mode it grants, as the caller gave it ("read-only", ...)
	Created   time.Time
}

// tokenPrefix starts every secret, so a leaked one is recognizable (secret scanners).
const tokenPrefix = "llmfs_"

// ErrBadToken reports a secret that is malformed, unknown or revoked. Callers answer all
// three the same way (HTTP 401), so nothing tells a guesser which it was.
var ErrBadToken = errors.New("invalid or revoked token")

// CreateToken makes a token for workspace ws in mode, labelled name, and returns its
// secret, which exists nowhere else afterwards: the caller shows it once. The secret is
// "llmfs_" + the token's ID + "_" + 128 random bits. It fails with an error wrapping
// [fs.ErrNotExist] if there is no such workspace and [fs.ErrInvalid] for an empty or
// overlong mode or a name with control characters.
func (x *DB) CreateToken(ctx context.Context, ws, mode, name string) (string, Token, error) {
	if err := CheckID(ws); err != nil {
		return "", Token{}, err
	}
	if mode == "" || len(mode) > 32 || len(name) > 200 || strings.ContainsFunc(name+mode, unicode.IsControl) {
		return "", Token{}, wsErr("token create", ws, fs.ErrInvalid)
	}
	tok := Token{ID: strings.ToLower(rand.Text()[:12]), Workspace: ws, Name: name, Mode: mode, Created: time.Now()}
	secret := tokenPrefix + tok.ID + "_" + rand.Text()
	sum := sha256.Sum256([]byte(secret))
	err := x.write(ctx, true, func(t *txn) error {
		var wid int64
		err := t.queryRow(`SELECT id FROM llmfs_workspaces WHERE name = ?`, ws).Scan(&wid)
		if errors.Is(err, sql.ErrNoRows) {
			return wsErr("token create", ws, fs.ErrNotExist)
		}
		if err != nil {
			return wsErr("token create", ws, err)
		}
		_, err = t.exec(`INSERT INTO llmfs_tokens (id, ws, name, mode, hash, created) VALUES (?, ?, ?, ?, ?, ?)`,
			tok.ID, wid, name, mode, sum[:], tok.Created.UnixNano())
		if err != nil {
			return wsErr("token create", ws, err)
		}
		return nil
	})
	if err != nil {
		return "", Token{}, err
	}
	return secret, tok, nil
}

// Tokens returns the tokens of workspace ws, oldest first, without their secrets. It
// fails with an error wrapping [fs.ErrNotExist] if there is no such workspace.
func (x *DB) Tokens(ctx context.Context, ws string) ([]Token, error) {
	if err := CheckID(ws); err != nil {
		return nil, err
	}
	var wid int64
	err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT id FROM llmfs_workspaces WHERE name = ?`), ws).Scan(&wid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, wsErr("token list", ws, fs.ErrNotExist)
	}
	if err != nil {
		return nil, wsErr("token list", ws, err)
	}
	rows, err := x.db.QueryContext(ctx, x.d.rebind(`SELECT id, name, mode, created FROM llmfs_tokens
		WHERE ws = ? ORDER BY created, id`), wid)
	if err != nil {
		return nil, wsErr("token list", ws, err)
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		t := Token{Workspace: ws}
		var created int64
		if err := rows.Scan(&t.ID, &t.Name, &t.Mode, &created); err != nil {
			return nil, wsErr("token list", ws, err)
		}
		t.Created = time.Unix(0, created)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, wsErr("token list", ws, err)
	}
	return out, nil
}

// RevokeToken deletes the token id of workspace ws: its secret stops working at once, in
// every process sharing the database. It fails with an error wrapping [fs.ErrNotExist]
// if ws has no such token.
func (x *DB) RevokeToken(ctx context.Context, ws, id string) error {
	if err := CheckID(ws); err != nil {
		return err
	}
	return x.write(ctx, true, func(t *txn) error {
		res, err := t.exec(`DELETE FROM llmfs_tokens WHERE id = ? AND ws = (SELECT id FROM llmfs_workspaces WHERE name = ?)`, id, ws)
		if err != nil {
			return wsErr("token revoke", ws, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return &fs.PathError{Op: "token revoke", Path: "token " + id + " of workspace " + ws, Err: fs.ErrNotExist}
		}
		return nil
	})
}

// CheckToken returns the token whose secret is secret, or an error wrapping
// [ErrBadToken] when there is none (malformed, unknown or revoked). The token is looked
// up by its public ID and the secret's hash compared in constant time, so the time
// taken says nothing about how much of a guess was right.
func (x *DB) CheckToken(ctx context.Context, secret string) (Token, error) {
	rest, ok := strings.CutPrefix(secret, tokenPrefix)
	id, _, ok2 := strings.Cut(rest, "_")
	if !ok || !ok2 || id == "" || len(secret) > 256 {
		return Token{}, ErrBadToken
	}
	var t Token
	var hash []byte
	var created int64
	err := x.db.QueryRowContext(ctx, x.d.rebind(`SELECT w.name, t.name, t.mode, t.hash, t.created
		FROM llmfs_tokens t JOIN llmfs_workspaces w ON w.id = t.ws WHERE t.id = ?`), id).
		Scan(&t.Workspace, &t.Name, &t.Mode, &hash, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Token{}, ErrBadToken
	}
	if err != nil {
		return Token{}, fmt.Errorf("sqlstore: check token: %w", err)
	}
	sum := sha256.Sum256([]byte(secret))
	if subtle.ConstantTimeCompare(sum[:], hash) != 1 {
		return Token{}, ErrBadToken
	}
	t.ID, t.Created = id, time.Unix(0, created)
	return t, nil
}
