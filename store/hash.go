package store

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// Hash returns the content hash used by [WriteOptions.IfMatch]: the hex SHA-256 of data.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// HashReader returns [Hash] of everything r yields.
func HashReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
