//go:build goexperiment.jsonv2

package jsonstr

import "encoding/json/jsontext"

// With GOEXPERIMENT=jsonv2, BenchmarkDecode measures jsontext too.
func init() {
	decoders = append(decoders, struct {
		name string
		fn   func(dst, lit []byte) []byte
	}{"jsontext", func(dst, lit []byte) []byte { out, _ := jsontext.AppendUnquote(dst, lit); return out }})
}
