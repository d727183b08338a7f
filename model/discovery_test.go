package model

import "testing"

func TestDiscoveryLine(t *testing.T) {
	for _, c := range []struct {
		d    Discovery
		want string
	}{
		{Discovery{Artifacts: 1, Datasets: 1}, "1 artifact opened; nothing left out"},
		{Discovery{Artifacts: 12, Datasets: 30, LeftOut: []LeftOut{
			{Path: "a.txt", Reason: LeftNotData}, {Path: "b.png", Reason: LeftNotData},
			{Path: "c.json", Reason: LeftNoFormat}, {Path: ".git", Reason: LeftTool, Folder: true},
		}}, "12 artifacts opened (30 datasets); 3 files left out (2 not a data file, 1 no format recognised), 1 folder not read (1 a tool's folder): " + ListHint},
		{Discovery{Folder: "/runs", LeftOut: []LeftOut{{Path: "/runs/a/loop", Reason: LeftLoop, Folder: true}}},
			"0 artifacts opened; 1 folder not read: a/loop (a link to a folder read already)"},
		{Discovery{Folder: "out/", LeftOut: []LeftOut{{Path: "out/x.jsonl", Reason: LeftUnreadable, Detail: "permission denied"}}},
			"0 artifacts opened; 1 file left out: x.jsonl (unreadable: permission denied)"},
		{Discovery{Folder: "/runs", LeftOut: []LeftOut{{Path: "/elsewhere/x.json", Reason: LeftNoFormat}}},
			"0 artifacts opened; 1 file left out: /elsewhere/x.json (no format recognised)"},
	} {
		if got := c.d.Line(); got != c.want {
			t.Errorf("Line() = %q\nwant %q", got, c.want)
		}
	}
	two := DiscoveryLine([]Discovery{{Artifacts: 2, Datasets: 2}, {Artifacts: 1, Datasets: 1, LeftOut: []LeftOut{{Path: "x.md", Reason: LeftNotData}, {Path: "y.md", Reason: LeftNotData}}}})
	if want := "2 folders: 3 artifacts opened; 2 files left out (2 not a data file): " + ListHint; two != want {
		t.Errorf("DiscoveryLine = %q, want %q", two, want)
	}
	one := DiscoveryLine([]Discovery{{Folder: "/tmp/d/lm_eval", Artifacts: 2, Datasets: 2}, {Folder: "/tmp/d/sample/", Artifacts: 1, Datasets: 1,
		LeftOut: []LeftOut{{Path: "/tmp/d/sample/images/apple.png", Reason: LeftNotData}}}})
	if want := "2 folders: 3 artifacts opened; 1 file left out: sample/images/apple.png (not a data file)"; one != want {
		t.Errorf("DiscoveryLine = %q, want %q", one, want)
	}
	if DiscoveryLine(nil) != "" {
		t.Error("no folder: a line")
	}
}
