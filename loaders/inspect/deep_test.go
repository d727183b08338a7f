package inspect

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"evalview/internal/hostile"
	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// deepLogs are logs whose members give issues when read: the fixtures,
// a member cut short, one that is not JSON, a bomb with a lying header,
// fields over a lowered cap.
func deepLogs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range []string{"capitals_zstd.eval", "capitals_deflate.eval", "running.eval", "broken.eval", "capitals.json", "agent_pool.eval"} {
		out[n] = filepath.Join(fixtureDir, n)
	}
	ms := finishedMembers(zipsafe.MethodZstd, false, true)
	for i := range ms {
		switch ms[i].name {
		case "samples/1_epoch_2.json":
			ms[i].data = ms[i].data[:len(ms[i].data)/2]
		case "samples/2_epoch_1.json":
			ms[i].data = "not json"
		}
	}
	out["damaged members"] = writeEval(t, zipOf(ms))
	raw, crc := hostile.Bomb(64)
	out["lying bomb"] = writeEval(t, zipWith(withoutMember("samples/3_epoch_1.json"), func(zw *zip.Writer) {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "samples/3_epoch_1.json", Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(len(raw)), UncompressedSize64: 100})
		w.Write(raw)
	}))
	return out
}

// TestDeepMatchesRecords: check walks each member without building its
// record, and must find exactly the issues that opening the record adds
// to the list's, record by record.
func TestDeepMatchesRecords(t *testing.T) {
	defer func(v int) { fieldCap = v }(fieldCap)
	for name, p := range deepLogs(t) {
		for _, cap := range []int{16 << 20, 200} {
			fieldCap = cap
			t.Run(fmt.Sprintf("%s cap %d", name, cap), func(t *testing.T) {
				dss, err := Open(p)
				if err != nil {
					t.Fatal(err)
				}
				ds := dss[0]
				x := ds.Records.(*index)
				rep, err := ds.Deep(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				var want []model.Issue
				for i := 0; i < x.Len(); i++ {
					r, err := x.Record(i)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, r.Issues[len(x.IndexIssues(i)):]...)
				}
				if got, w := issueList(rep.Issues), issueList(want); got != w {
					t.Errorf("deep found:%s\nopening the records found:%s", got, w)
				}
			})
		}
	}
}

func TestDeepFindsDamage(t *testing.T) {
	p := deepLogs(t)["damaged members"]
	ds := openOne(t, p)
	rep, err := ds.Deep(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"samples/1_epoch_2.json", "samples/2_epoch_1.json"} {
		if !hasIssue(rep.Issues, "bad-sample", "!"+m) {
			t.Errorf("no bad-sample for %s:%s", m, issueList(rep.Issues))
		}
	}
	if len(rep.Flagged) != 2 || rep.Flagged[0] != 0 || rep.Flagged[1] != 1 {
		t.Errorf("flagged %v, want records 0 and 1", rep.Flagged)
	}
	_ = os.Remove(p)
}
