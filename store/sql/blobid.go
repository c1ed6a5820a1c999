package sqlstore

import (
	"crypto/rand"
	"encoding/binary"
)

// randomBlob returns a random content id, above 0, for PostgreSQL and the distributed
// databases that speak its protocol: a sequence would be one hot value every write takes,
// and ids that rise one by one put every new chunk at the end of one key range. Random ids
// spread over the key space; with 63 random bits, two contents meet with probability about
// n²/2⁶⁴ over n contents (below one in a million up to 6 million contents), and a meeting
// fails the write on the chunks' primary key rather than mixing content.
func randomBlob() int64 {
	var b [8]byte
	rand.Read(b[:])
	id := int64(binary.BigEndian.Uint64(b[:]) >> 1)
	if id == 0 {
		return 1
	}
	return id
}
