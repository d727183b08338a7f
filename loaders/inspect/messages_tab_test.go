package inspect

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"evalview/model"
)

// TestEpochMessagesTab: each epoch's conversation (system prompt, tool
// calls and their results, reasoning) is in a Messages tab after the
// Responses, where the browser shows it; the Responses tab's numbered
// attempts show only an epoch's answer, so without the tab the thread
// read from the sample member was shown nowhere but in Raw.
func TestEpochMessagesTab(t *testing.T) {
	for _, name := range []string{"capitals_zstd.eval", "capitals.json"} {
		t.Run(name, func(t *testing.T) {
			ds := openOne(t, filepath.Join(fixtureDir, name))
			Present(ds)
			i := slices.IndexFunc(ds.Presentation.Tabs, func(tab model.DetailTab) bool {
				return tab.Content == model.TabSections && tab.Name == messagesTab
			})
			if i != 2 {
				t.Fatalf("the Messages tab is at %d in %+v, want after Prompt and Responses", i, ds.Presentation.Tabs)
			}
			r, err := ds.Records.Record(0)
			if err != nil {
				t.Fatal(err)
			}
			var epochs []string
			for _, s := range r.Sections {
				if s.Tab != messagesTab {
					continue
				}
				epochs = append(epochs, s.Title)
				if s.Type != model.SectionMessages || len(s.Messages) == 0 {
					t.Fatalf("section %q: type %d, %d messages", s.Title, s.Type, len(s.Messages))
				}
				var call, result, system bool
				for _, m := range s.Messages {
					system = system || m.Role == model.RoleSystem
					for _, seg := range m.Segments {
						call = call || seg.Type == model.SegToolCall
						result = result || seg.Type == model.SegToolResult || m.Role == model.RoleTool
					}
				}
				if !call || !result || !system {
					t.Errorf("section %q lacks the system prompt (%v), a tool call (%v) or its result (%v)", s.Title, system, call, result)
				}
			}
			want := []string{}
			for _, a := range r.Attempts {
				want = append(want, "messages, epoch "+strconv.Itoa(a.Index))
			}
			if !slices.Equal(epochs, want) {
				t.Errorf("Messages sections %q, want one per epoch %q", epochs, want)
			}
		})
	}
}
