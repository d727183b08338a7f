package loaders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/internal/testos"
	"evalview/model"
)

// TestFolderFormatsRefuseFIFOs: the formats whose folder is opened whole
// read the files in it themselves, past the walk's checks: a FIFO put in
// place of any one of them is refused unopened and said (opening a FIFO
// to read waits for a writer for ever: the walk hung), and the folder
// still opens. Files a format does not read there (an OpenCompass
// config; HELM's display files, which stand in for scenario_state.json
// when it is absent) only must not hang it.
func TestFolderFormatsRefuseFIFOs(t *testing.T) {
	unread := map[string]bool{
		filepath.Join("configs", "task_config_b7e1f0.yaml"): true, filepath.Join("configs", "20250302_090000.py"): true,
		"display_predictions.json": true, "display_requests.json": true, "instances.json": true,
	}
	for _, fixture := range []string{
		"../testdata/evalscope/20250301_090000",
		"../testdata/opencompass/20250302_090000",
		"../testdata/helm",
	} {
		var files []string
		err := filepath.Walk(fixture, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() {
				rel, _ := filepath.Rel(fixture, p)
				files = append(files, rel)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			root := t.TempDir()
			dir := filepath.Join(root, filepath.Base(fixture))
			copyInto(t, fixture, dir)
			p := filepath.Join(dir, f)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := testos.Mkfifo(p); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			done := make(chan string, 1)
			go func() {
				var b strings.Builder
				dss, err := Open([]string{dir}, Options{Found: func(d model.Discovery) {
					for _, l := range d.LeftOut {
						b.WriteString("left out " + l.Path + ": " + string(l.Reason) + "\n")
					}
				}})
				if err != nil {
					b.WriteString(err.Error() + "\n")
				}
				for _, ds := range dss {
					for _, is := range ds.Issues {
						b.WriteString(is.String() + "\n")
					}
				}
				done <- b.String()
			}()
			select {
			case got := <-done:
				if !unread[f] && !strings.Contains(got, model.LeftNotRegular) {
					t.Errorf("%s with %s a FIFO: nothing says so:\n%s", fixture, f, got)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s with %s a FIFO: opening the folder waits on it", fixture, f)
			}
		}
	}
}
