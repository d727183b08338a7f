package inspect

import (
	"path/filepath"
	"testing"

	"evalview/model"
)

// TestOriginRun: a log's run is its creation time, which the overview
// and the picker show and tell two runs of one task apart by.
func TestOriginRun(t *testing.T) {
	dss, err := Open(filepath.Join(fixtureDir, "capitals.json"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	if o := model.OriginOf(dss[0]); o.Run != "2025-07-05T09:59:00+00:00" || model.RunTime(o.Run) != "2025-07-05 09:59 UTC" || o.Model != "openai/gpt-4o-mini" {
		t.Errorf("origin %+v", o)
	}
}
