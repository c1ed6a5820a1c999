package stdio

import (
	sdkjson "github.com/segmentio/encoding/json"
)

// decodeAsGoSDK decodes the JSON value data into v as the go-sdk's decoder does, so that
// the stdio fast path reads a message as [jsonrpc.DecodeMessage] would. The go-sdk
// decodes with segmentio's decoder and DontMatchCaseInsensitiveStructFields: a key
// matches a field only as written ("Method" is not "method"), and of duplicate keys the
// last wins, with the decoder's rule for null (a string keeps its value). encoding/json
// matches keys case-insensitively, even by Unicode folding ("jſonrpc" is "jsonrpc").
//
// The go-sdk's Decoder.Decode reads one value from the stream and hands it to Parse
// with the decoder's flags; callers give data already checked to be one JSON value
// nested no deeper than the go-sdk allows, so Parse with the same flag reads it the
// same way, without the 32 KiB buffer a Decoder allocates. The bytes Parse leaves are
// those the go-sdk's decoder leaves unread: none for such data.
func decodeAsGoSDK(data []byte, v any) error {
	_, err := sdkjson.Parse(data, v, sdkjson.DontMatchCaseInsensitiveStructFields)
	return err
}
