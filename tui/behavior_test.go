package tui

import (
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/crash"
)

func selected(t *testing.T, m *Model) int {
	t.Helper()
	i, ok := m.list.Selected()
	if !ok {
		t.Fatal("no record selected")
	}
	return i
}

func TestListKeepsRecordAcrossSwitches(t *testing.T) {
	m := newTestModel(t, allFixtures(), 100, 30)
	press(m, "j", "j", "j") // doc 3, wrong under both filters
	if got := selected(t, m); got != 3 {
		t.Fatalf("selected %d, want 3", got)
	}
	press(m, "x")
	if got := selected(t, m); got != 3 || len(m.list.Visible()) != 2 {
		t.Errorf("wrong only: selected %d of %v, want 3 of [3 4]", got, m.list.Visible())
	}
	press(m, "f")
	if got := selected(t, m); got != 3 || m.list.FilterIndex() != 1 {
		t.Errorf("after f: selected %d filter %d", got, m.list.FilterIndex())
	}
	if s := screen(m); !strings.Contains(s, "filter flexible-extract") || !strings.Contains(s, "wrong only") {
		t.Errorf("status bar does not show the filter and the switch:\n%s", s)
	}
	press(m, "x")
	if got := selected(t, m); got != 3 || len(m.list.Visible()) != 6 {
		t.Errorf("all again: selected %d of %d", got, len(m.list.Visible()))
	}
	// A record that is not wrong moves the cursor to the next wrong one.
	press(m, "g", "x")
	if got := selected(t, m); got != 3 {
		t.Errorf("from doc 0, wrong only selects %d, want 3", got)
	}
	if m.detail.Record() == nil || m.detail.Record().ID != "3" {
		t.Errorf("detail shows %v, want doc 3", m.detail.Record())
	}
}

func TestListNavigation(t *testing.T) {
	m := newTestModel(t, allFixtures(), 60, 15) // 3 list rows
	tests := []struct {
		keys []string
		want int
	}{
		{[]string{"G"}, 5}, {[]string{"g"}, 0}, {[]string{"pgdown"}, 3}, {[]string{"ctrl+d"}, 4},
		{[]string{"k", "k"}, 2}, {[]string{"up", "down", "down"}, 3}, {[]string{"pgup"}, 0}, {[]string{"k"}, 0},
	}
	for _, tt := range tests {
		press(m, tt.keys...)
		if got := selected(t, m); got != tt.want {
			t.Errorf("after %v: selected %d, want %d", tt.keys, got, tt.want)
		}
		if m.detail.Record() == nil || m.detail.Record().ID != m.datasets[0].Records.Summary(tt.want).ID {
			t.Errorf("after %v the detail does not follow the cursor", tt.keys)
		}
	}
}

func TestListSearch(t *testing.T) {
	m := newTestModel(t, allFixtures(), 100, 30)
	press(m, "/")
	typeText(m, "how")
	if m.mode() != modeInput {
		t.Fatal("not typing after /")
	}
	press(m, "enter")
	// The list search covers the whole record: "how" (smart case) is in
	// every doc's few-shot example ("How many trees"); the cursor stays on 0.
	if got := m.list.Hits(); len(got) != 6 {
		t.Fatalf("matches %v, want 6", got)
	}
	press(m, "n")
	if got := selected(t, m); got != 1 {
		t.Errorf("n selects %d, want 1", got)
	}
	press(m, "N", "N")
	if got := selected(t, m); got != 5 {
		t.Errorf("N N wraps to %d, want 5", got)
	}
	if s := screen(m); !strings.Contains(s, "/how 6/6 in list") {
		t.Errorf("status lacks the search:\n%s", s)
	}
	// Upper case is case sensitive: "How" is only in doc 1 ("How many bolts").
	press(m, "/")
	typeText(m, "How many b")
	press(m, "enter")
	if got := len(m.list.Hits()); got != 1 || selected(t, m) != 1 {
		t.Errorf("smart case: %d matches, selected %d", got, selected(t, m))
	}
	press(m, "/", "x", "esc")
	if m.list.Query() != "" || m.mode() == modeInput {
		t.Errorf("esc keeps the query %q", m.list.Query())
	}
}

func TestDetailSearch(t *testing.T) {
	m := newTestModel(t, allFixtures(), 60, 15)
	press(m, "tab", "5") // Raw: two parts of 16 lines each
	press(m, "/")
	typeText(m, "doc_id")
	press(m, "enter")
	if got, _ := m.detail.SearchHits(); got != 2 {
		t.Fatalf("%d matches of doc_id in Raw, want 2", got)
	}
	press(m, "n")
	if _, cur := m.detail.SearchHits(); cur != 2 || m.detail.Offset() == 0 {
		t.Errorf("n: match %d at offset %d, want the second match scrolled into view", cur, m.detail.Offset())
	}
	if s := screen(m); !strings.Contains(s, "/doc_id 2/2 in Raw") {
		t.Errorf("status lacks the detail search:\n%s", s)
	}
	press(m, "esc")
	if q, _ := m.detail.SearchQuery(); q != "" || m.focus != focusDetail {
		t.Errorf("first esc clears the search and stays in the detail")
	}
	press(m, "esc")
	if m.focus != focusList {
		t.Errorf("second esc goes back to the list")
	}
}

func TestTabsFollowTheUser(t *testing.T) {
	m := newTestModel(t, allFixtures(), 100, 30)
	press(m, "tab", "3", "tab", "j")
	if got := m.detail.TabName(); got != "Filters" {
		t.Errorf("tab %q after moving, want Filters", got)
	}
	press(m, ">") // the run dataset has no Filters tab
	if got := m.detail.TabName(); got != "Prompt" {
		t.Errorf("tab %q in the run dataset, want Prompt", got)
	}
	press(m, "<")
	if got := m.detail.TabName(); got != "Filters" || selected(t, m) != 1 {
		t.Errorf("back in gsm8k: tab %q record %d, want Filters and 1", got, selected(t, m))
	}
	press(m, "tab", "]", "]", "[")
	if got := m.detail.TabName(); got != "Doc" {
		t.Errorf("] ] [ from Filters gives %q, want Doc", got)
	}
}

func TestMouse(t *testing.T) {
	m := newTestModel(t, allFixtures(), 100, 30)
	l := m.layout
	send(m, tea.MouseClickMsg{X: 5, Y: l.List.Y + 1 + 2, Button: tea.MouseLeft})
	if got := selected(t, m); got != 2 || m.focus != focusList {
		t.Errorf("click on the third row: selected %d focus %d", got, m.focus)
	}
	bar := strings.Split(ansi.Strip(m.detail.View()), "\n")[0]
	x0 := strings.Index(bar, "3 Filters")
	if x0 < 0 {
		t.Fatalf("no Filters tab in %q", bar)
	}
	send(m, tea.MouseClickMsg{X: l.Detail.X + x0 + 1, Y: l.Detail.Y, Button: tea.MouseLeft})
	if got := m.detail.TabName(); got != "Filters" || m.focus != focusDetail {
		t.Errorf("click on a tab: %q focus %d", got, m.focus)
	}
	press(m, "5")
	send(m, tea.MouseWheelMsg{X: l.Detail.X + 3, Y: l.Detail.Y + 5, Button: tea.MouseWheelDown})
	if m.detail.Offset() != 3 {
		t.Errorf("wheel over the detail: offset %d, want 3", m.detail.Offset())
	}
	send(m, tea.MouseWheelMsg{X: 3, Y: l.List.Y + 3, Button: tea.MouseWheelDown})
	if got := selected(t, m); got != 5 {
		t.Errorf("wheel over the list: selected %d, want 5", got)
	}
	send(m, tea.MouseClickMsg{X: l.Width - 2, Y: 0, Button: tea.MouseLeft})
	if m.cur != 1 {
		t.Errorf("click on the switcher: dataset %d, want 1", m.cur)
	}
}

func TestSanitizedScreen(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	for _, theme := range []string{"dark", "light"} {
		m := New(allFixtures(), Options{Theme: theme})
		drive(m, m.Init())
		send(m, tea.WindowSizeMsg{Width: 250, Height: 40})
		press(m, "j", "j", "j", "j") // the record with terminal payloads in its title
		v := m.View()
		for _, bad := range []string{"\x1b]", "\x07", "\x1bP", "\u009b", "\u202e"} {
			if strings.Contains(v.Content, bad) {
				t.Errorf("%s: screen holds %q", theme, bad)
			}
		}
		s := screen(m)
		if !strings.Contains(s, "␛]2;pwned␇") || !strings.Contains(s, "␛]52;c;cm0gLXJmIH4=␇") {
			t.Errorf("%s: payloads not shown escaped:\n%s", theme, s)
		}
		if !strings.Contains(v.Content, "\x1b[38;") {
			t.Errorf("%s: no colors without NO_COLOR", theme)
		}
		if !v.AltScreen || v.MouseMode != tea.MouseModeCellMotion {
			t.Errorf("view does not ask for the alt screen and the mouse")
		}
	}
}

func TestTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	m := New(allFixtures(), Options{Theme: "auto"})
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	send(m, tea.BackgroundColorMsg{Color: color.White})
	if m.c.Styles.Dark {
		t.Error("a white background should pick the light theme")
	}
	send(m, tea.BackgroundColorMsg{Color: color.Black})
	if !m.c.Styles.Dark {
		t.Error("a black background should pick the dark theme")
	}
	fixed := New(allFixtures(), Options{Theme: "light"})
	send(fixed, tea.BackgroundColorMsg{Color: color.Black})
	if fixed.c.Styles.Dark {
		t.Error("--theme light must not follow the terminal")
	}
	t.Setenv("NO_COLOR", "1")
	plain := New(allFixtures(), Options{Theme: "dark"})
	send(plain, tea.WindowSizeMsg{Width: 80, Height: 24})
	if !plain.c.Styles.NoColor || strings.Contains(plain.View().Content, "\x1b[38;") {
		t.Error("NO_COLOR must turn colors off")
	}
}

// growingIndex is an index a background scan is still filling.
type growingIndex struct {
	mu   sync.Mutex
	recs []*model.Record
	n    int
	done bool
}

func (g *growingIndex) Len() int                            { g.mu.Lock(); defer g.mu.Unlock(); return g.n }
func (g *growingIndex) Summary(i int) model.Summary         { return g.recs[i].Summary }
func (g *growingIndex) Record(i int) (*model.Record, error) { return g.recs[i], nil }
func (g *growingIndex) Done() bool                          { g.mu.Lock(); defer g.mu.Unlock(); return g.done }
func (g *growingIndex) grow(n int, done bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n, g.done = n, done
}

func TestGrowingIndex(t *testing.T) {
	base := lmevalFixture()
	idx := &growingIndex{recs: base.Records.(*model.MemIndex).Recs}
	base.Records = idx
	m := newTestModel(t, []*model.Dataset{base}, 100, 30)
	if s := screen(m); !strings.Contains(s, "Indexing…") || !strings.Contains(s, "indexing…") || !strings.Contains(s, "0 records so far") {
		t.Errorf("empty growing index:\n%s", s)
	}
	idx.grow(3, false)
	send(m, indexTickMsg{})
	if len(m.list.Visible()) != 3 || m.detail.Record() == nil || m.detail.Record().ID != "0" {
		t.Errorf("after growing to 3: %d rows, detail %v", len(m.list.Visible()), m.detail.Record())
	}
	idx.grow(6, true)
	send(m, indexTickMsg{})
	s := screen(m)
	if len(m.list.Visible()) != 6 || strings.Contains(s, "indexing") || !strings.Contains(s, "1/6") {
		t.Errorf("after the index is done:\n%s", s)
	}
	if !strings.Contains(s, "(samples 0.67)") {
		t.Errorf("recomputed metrics should show once the index is done:\n%s", s)
	}
}

// panicIndex panics when a record is read, as a loader bug would.
type panicIndex struct{ model.MemIndex }

func (p *panicIndex) Record(int) (*model.Record, error) { panic("loader bug") }

func TestCrashInCommandQuitsCleanly(t *testing.T) {
	ds := lmevalFixture()
	ds.Records = &panicIndex{*ds.Records.(*model.MemIndex)}
	m := newTestModel(t, []*model.Dataset{ds}, 80, 24)
	if m.crash == nil || m.crash.Value != "loader bug" || !strings.Contains(string(m.crash.Stack), "panicIndex") {
		t.Fatalf("crash not recorded: %+v", m.crash)
	}
}

// panicSummary panics on one summary once armed, reached inside Update.
type panicSummary struct {
	model.MemIndex
	armed bool
}

func (p *panicSummary) Summary(i int) model.Summary {
	if p.armed && i == 4 {
		panic("bad summary")
	}
	return p.MemIndex.Summary(i)
}

func TestCrashInUpdateQuitsCleanly(t *testing.T) {
	ds := lmevalFixture()
	idx := &panicSummary{MemIndex: *ds.Records.(*model.MemIndex)}
	ds.Records = idx
	m := New([]*model.Dataset{ds}, Options{Theme: "dark"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	idx.armed = true
	next, cmd := m.Update(keyMsg("x")) // rebuilding the list reads every summary
	if next != m {
		t.Error("Update must still return the model after a crash")
	}
	if m.crash == nil || m.crash.Value != "bad summary" {
		t.Fatalf("crash not recorded: %+v", m.crash)
	}
	if cmd == nil {
		t.Fatal("no command after a crash")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("a crash must quit the program")
	}
}

func TestCrashLog(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	c := &crash.Info{Value: "boom", Stack: []byte("goroutine 1 [running]:\nmain.main()")}
	err := crash.Error(c)
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("error %v does not name the panic and the log", err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "evalview-crash-*.log"))
	if len(logs) != 1 {
		t.Fatalf("crash logs: %v", logs)
	}
	body, _ := os.ReadFile(logs[0])
	if !strings.Contains(string(body), "panic: boom") || !strings.Contains(string(body), "goroutine 1") {
		t.Errorf("log lacks the panic or the stack:\n%s", body)
	}
	// The name starts with the time and ends in a random part: a link
	// planted at the name the time alone gives is left alone.
	planted := filepath.Join(dir, "evalview-crash-20251102-091427.000.log")
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	os.Symlink(victim, planted)
	name, err := crash.WriteLog(c, time.Date(2025, 11, 2, 9, 14, 27, 0, time.UTC))
	base := filepath.Base(name)
	if err != nil || !strings.HasPrefix(base, "evalview-crash-20251102-091427.000-") || !strings.HasSuffix(base, ".log") || name == planted {
		t.Errorf("log name %q, %v", name, err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the crash log was written through a planted link: %q", b)
	}
}

func TestQuit(t *testing.T) {
	m := newTestModel(t, allFixtures(), 80, 24)
	for _, k := range []string{"q", "ctrl+c"} {
		_, cmd := m.Update(keyMsg(k))
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s does not quit", k)
		}
	}
}

func TestOptionsFilterAndTabKeysFromList(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	m := New(allFixtures(), Options{Theme: "dark", Filter: "flexible-extract"})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if m.list.FilterIndex() != 1 || !strings.Contains(screen(m), "filter flexible-extract") {
		t.Errorf("--filter flexible-extract: filter %d", m.list.FilterIndex())
	}
	if other := New(allFixtures(), Options{Filter: "no-such-filter"}); other.list.FilterIndex() != 0 {
		t.Errorf("an unknown filter should fall back to the first, got %d", other.list.FilterIndex())
	}
	press(m, "3")
	if m.detail.TabName() != "Filters" || m.focus != focusList {
		t.Errorf("3 from the list: tab %q focus %d", m.detail.TabName(), m.focus)
	}
	press(m, "]", "]")
	if m.detail.TabName() != "Raw" {
		t.Errorf("] ] from Filters: %q", m.detail.TabName())
	}
	press(m, "[")
	if m.detail.TabName() != "Doc" {
		t.Errorf("[ from Raw: %q", m.detail.TabName())
	}
}

func TestNoDatasets(t *testing.T) {
	broken := asRun(&model.Dataset{Kind: model.KindRun, Title: "broken"}) // no index at all
	for _, dss := range [][]*model.Dataset{nil, {nil}, {broken}} {
		m := newTestModel(t, dss, 80, 24)
		press(m, "j", "tab", "x", "f", "/", "a", "enter", "n", ">", "D", "esc", "?", "esc")
		checkFits(t, screen(m), 80, 24)
		if m.crash != nil {
			t.Errorf("crash with %v: %v", dss, m.crash)
		}
	}
}

// errIndex fails to read record 2, as a file changed on disk would.
type errIndex struct{ model.MemIndex }

func (e *errIndex) Record(i int) (*model.Record, error) {
	if i == 2 {
		return nil, errors.New("samples.jsonl:3: reading row: unexpected EOF (was the file changed since it was opened?)")
	}
	return e.MemIndex.Record(i)
}

func TestRecordLoadError(t *testing.T) {
	ds := lmevalFixture()
	ds.Records = &errIndex{*ds.Records.(*model.MemIndex)}
	m := newTestModel(t, []*model.Dataset{ds}, 80, 24)
	press(m, "j", "j")
	s := screen(m)
	flat := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(flat, "Could not read this record: samples.jsonl:3: reading row: unexpected EOF") || !strings.Contains(s, "record 3 could not be read") {
		t.Errorf("load error not shown:\n%s", s)
	}
	checkFits(t, s, 80, 24)
	press(m, "j")
	if s := screen(m); strings.Contains(s, "Could not read") || m.detail.Record() == nil || m.detail.Record().ID != "3" {
		t.Errorf("the next record should show again:\n%s", s)
	}
}

func TestBigRecordRendersInACommand(t *testing.T) {
	ds := runFixture()
	big := ds.Records.(*model.MemIndex).Recs[0]
	big.Attempts[0].Text = strings.Repeat("long answer text ", 4000) // 68 KB
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	press(m, "tab")
	if m.detail.Record() != big || m.detail.TabName() != "Prompt" || len(m.detail.Doc().Lines) == 0 {
		t.Fatal("the big record's Prompt did not show")
	}
	// Ask for Responses but hold its render back, switch to Details, then
	// deliver the Responses render late: it must not replace Details.
	_, pending := m.Update(keyMsg("2"))
	if pending == nil || !m.detail.Busy() {
		t.Fatal("a big record should render in a command")
	}
	if s := screen(m); !strings.Contains(s, "rendering…") {
		t.Errorf("status bar does not say rendering:\n%s", s)
	}
	press(m, "3")
	send(m, pending())
	if m.detail.TabName() != "Details" || !strings.Contains(strings.Join(m.detail.Doc().Plain, "\n"), "Generation params") {
		t.Error("a late render replaced the tab on screen")
	}
	press(m, "2") // now from the cache
	if m.detail.Busy() || !strings.Contains(strings.Join(m.detail.Doc().Plain, "\n"), "long answer text") {
		t.Error("Responses of the big record did not show from the cache")
	}
}

// syncedGrowing is a growing index that updates its dataset at each sync
// where it grew, as lm-eval's does (metrics, filters): the rows then come
// in through the sync, before the tick's own look at the list.
type syncedGrowing struct {
	*growingIndex
	synced int
}

func (s *syncedGrowing) SyncDataset(*model.Dataset) bool {
	n := s.Len()
	changed := n != s.synced
	s.synced = n
	return changed
}

// The first rows of an index still growing show their record in the
// detail however they came in: through the sync (a remote file's first
// rows and its filters arrive together) as through the tick.
func TestGrowingIndexFirstRecordThroughSync(t *testing.T) {
	base := lmevalFixture()
	idx := &syncedGrowing{growingIndex: &growingIndex{recs: base.Records.(*model.MemIndex).Recs}}
	base.Records = idx
	m := newTestModel(t, []*model.Dataset{base}, 100, 30)
	idx.grow(3, false)
	send(m, indexTickMsg{})
	if len(m.list.Visible()) != 3 || m.detail.Record() == nil || m.detail.Record().ID != "0" {
		t.Fatalf("after growing to 3: %d rows, detail %v\n%s", len(m.list.Visible()), m.detail.Record(), screen(m))
	}
}

// An index that completes between the overview's making (New) and Init
// is not left "indexing" on the overview: Init tells the sheets what the
// indexes know then (no tick comes when nothing grows any more).
func TestOverviewLearnsIndexesDoneBeforeInit(t *testing.T) {
	dss := compareFixtures()
	recs := dss[0].Records.(*model.MemIndex).Recs
	idx := &growingIndex{recs: recs, n: len(recs)}
	dss[0].Records = idx
	t.Setenv("NO_COLOR", "1")
	m := New(dss, Options{Theme: "dark", Overview: true})
	idx.grow(len(recs), true) // the scan ends before Init
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if s := screen(m); !strings.Contains(s, "Overview") || strings.Contains(s, "indexing") {
		t.Fatalf("the overview still waits for an index that is done:\n%s", s)
	}
}
