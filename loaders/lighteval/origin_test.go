package lighteval

import (
	"path/filepath"
	"testing"

	"evalview/model"
)

// TestOriginRun: a details file's run is its stamp.
func TestOriginRun(t *testing.T) {
	dss, err := Open(filepath.Join(realFixtures(t), "flat", "details_leaderboard|boolq|0_2025-03-01T10-00-00.000000.parquet"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	if o := model.OriginOf(dss[0]); model.RunTime(o.Run) != "2025-03-01 10:00" {
		t.Errorf("origin %+v", o)
	}
}
