package tui

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/text"
)

// Follow mode (`--follow`, ctrl+r) watches the current dataset's file or
// folder, a JSONL still being appended to or a run folder whose status is
// running: every second it looks at the size and modification time (of
// every file, for a folder) and, when the data grew, reloads it through
// the `r` path, which keeps the query, the sort and the cursor's record.
// A file that shrank or was replaced is not reloaded over and over: the
// status bar says so and offers r, and following resumes after it.

// followEvery is how often a followed file is looked at.
const followEvery = time.Second

// followState is the browser's follow mode.
type followState struct {
	on bool
	// gen tags the running tick loop; turning follow off and on again
	// starts a new loop and retires the old one.
	gen int
	// path is what is watched, base what it looked like at the last
	// (re)load.
	path string
	base fileSig
	// reloading is set while a reload the watch asked for runs; stale
	// once the data shrank, until the user reloads.
	reloading, stale bool
	// needBase is set when base is not known yet: the next look at path
	// becomes it. Looks run off the event loop, since a followed folder
	// may hold many files.
	needBase bool
	// stat and readDir are how the path is looked at (Options.Stat,
	// Options.ReadDir).
	stat    func(string) (fs.FileInfo, error)
	readDir func(string) ([]fs.DirEntry, error)
}

// fileSig is what a followed path looks like: total size, latest
// modification and number of files (a folder counts all of its files).
type fileSig struct {
	ok    bool
	size  int64
	mod   time.Time
	files int
	// tag is a remote object's version tag (ETag), "" for local files.
	tag string
}

// maxFollowFiles bounds the walk of a followed folder.
const maxFollowFiles = 100_000

// statSig reads path's signature; ok is false when it cannot be read.
func statSig(path string) fileSig { return lookSig(nil, nil, path) }

// lookSig is statSig through stat and readDir (nil: os.Stat, and a walk
// of the local folder). The command gives the loaders' own, which read a
// remote folder's listing and each object's version tag.
func lookSig(stat func(string) (fs.FileInfo, error), readDir func(string) ([]fs.DirEntry, error), path string) fileSig {
	if stat == nil {
		stat = os.Stat
	}
	fi, err := stat(path)
	if err != nil {
		return fileSig{}
	}
	if !fi.IsDir() {
		sig := fileSig{ok: true, size: fi.Size(), mod: fi.ModTime(), files: 1}
		if t, ok := fi.Sys().(fmt.Stringer); ok {
			sig.tag = t.String()
		}
		return sig
	}
	sig := fileSig{ok: true}
	tags := fnv.New64a()
	add := func(info fs.FileInfo) {
		sig.files++
		sig.size += info.Size()
		if info.ModTime().After(sig.mod) {
			sig.mod = info.ModTime()
		}
		if t, ok := info.Sys().(fmt.Stringer); ok {
			fmt.Fprintf(tags, "%s\x00", t)
		}
	}
	if readDir == nil {
		_ = filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil || !info.Mode().IsRegular() {
				return nil
			}
			add(info)
			if sig.files >= maxFollowFiles {
				return filepath.SkipAll
			}
			return nil
		})
		return sig
	}
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := readDir(dir)
		if err != nil {
			return
		}
		// In name order, as os.ReadDir gives them: the version tags are
		// hashed in order, and a lister need not sort.
		slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range ents {
			if sig.files >= maxFollowFiles {
				return
			}
			p := filepath.Join(dir, e.Name())
			if e.IsDir() {
				walk(p)
				continue
			}
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			if t, ok := info.Sys().(fmt.Stringer); ok && t.String() == "" {
				// A listing without version tags (the Hub's): ask the
				// file's own, so that one replaced at the same size shows.
				if st, err := stat(p); err == nil {
					info = st
				}
			}
			add(info)
		}
	}
	walk(path)
	sig.tag = fmt.Sprintf("%x", tags.Sum64())
	return sig
}

// grewFrom reports whether s shows more data than base: bigger, more
// files, or the same size written again later (a summary rewritten in
// place, or a remote object replaced by one of the same size: its version
// tag differs).
func (s fileSig) grewFrom(base fileSig) bool {
	return s.ok && (s.size > base.size || s.files > base.files || s.size == base.size && (s.mod.After(base.mod) || s.tag != base.tag))
}

// shrankFrom reports whether s shows less than base: truncated, files
// gone, or the path gone.
func (s fileSig) shrankFrom(base fileSig) bool {
	return !s.ok || s.size < base.size || s.files < base.files
}

// followTickMsg is one look at the followed path.
type followTickMsg struct {
	gen  int
	path string
	sig  fileSig
}

// setFollow turns follow mode on (watching the current dataset from
// now) or off.
func (m *Model) setFollow(on bool) tea.Cmd {
	f := &m.follow
	f.gen++
	f.reloading, f.stale = false, false
	if !on {
		f.on = false
		m.flash = "follow off"
		return nil
	}
	ds := m.datasets[m.cur]
	switch {
	case m.opts.Reopen == nil:
		m.note = "follow needs reload, which is not available here"
		f.on = false
		return nil
	case ds.Path == "":
		m.note = "follow: the dataset has no file"
		f.on = false
		return nil
	}
	f.on, f.path, f.needBase = true, ds.Path, true
	f.stat, f.readDir = m.opts.Stat, m.opts.ReadDir
	return f.look()
}

// tick looks at the followed path again in a second, off the event loop.
func (f *followState) tick() tea.Cmd {
	gen, path, stat, readDir := f.gen, f.path, f.stat, f.readDir
	return tea.Tick(followEvery, func(time.Time) tea.Msg {
		return followTickMsg{gen: gen, path: path, sig: lookSig(stat, readDir, path)}
	})
}

// look looks at the followed path now, off the event loop: the base of
// a watch that starts.
func (f *followState) look() tea.Cmd {
	gen, path, stat, readDir := f.gen, f.path, f.stat, f.readDir
	return func() tea.Msg { return followTickMsg{gen: gen, path: path, sig: lookSig(stat, readDir, path)} }
}

func (msg followTickMsg) applyTo(m *Model) tea.Cmd {
	f := &m.follow
	if !f.on || msg.gen != f.gen || len(m.datasets) == 0 {
		return nil
	}
	if p := m.datasets[m.cur].Path; p != f.path {
		// The user switched datasets: watch the one shown now.
		f.path, f.needBase, f.stale = p, true, false
		return f.look()
	}
	if msg.path != f.path {
		// A look at a path watched before: look at this one instead.
		f.needBase = true
		return f.look()
	}
	if f.needBase {
		f.base, f.needBase = msg.sig, false
		return f.tick()
	}
	switch {
	case f.stale || f.reloading:
	case msg.sig.shrankFrom(f.base):
		f.stale = true
		m.note = text.OneLine(filepath.Base(f.path)) + " shrank or was replaced on disk: r reloads"
	case msg.sig.grewFrom(f.base):
		f.base, f.reloading = msg.sig, true
		return tea.Batch(m.reload(), f.tick())
	}
	return f.tick()
}

// reloaded updates the watch after a reload of ds (by the watch or by
// r): after a pause for a shrunk file, the loop's next look (the tick
// loop runs on while paused) is the new base.
func (f *followState) reloaded(ds *model.Dataset) {
	f.reloading = false
	if !f.on || ds == nil || ds.Path != f.path {
		return
	}
	if f.stale {
		f.stale, f.needBase = false, true
	}
}

// status is the status bar's follow marker.
func (f *followState) status() string {
	switch {
	case !f.on:
		return ""
	case f.stale:
		return "following (paused: r reloads)"
	}
	return "following"
}
