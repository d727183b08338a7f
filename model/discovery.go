package model

import (
	"fmt"
	"sort"
	"strings"
)

// Discovery is what opening a folder found: how many artifacts it opened
// and every file or folder below it that it left out, with why. The
// loaders fill it as they walk the folder; check prints it, the browser
// shows its line, so that nothing of a folder goes unmentioned.
type Discovery struct {
	// Folder is the folder opened.
	Folder string
	// Artifacts counts the files and run folders read as artifacts of a
	// format (a results file and its samples files are several).
	Artifacts int
	// Datasets counts the datasets they gave.
	Datasets int
	// LeftOut lists what was not read, in walk order.
	LeftOut []LeftOut
}

// LeftOut is one file or folder a walk did not read.
type LeftOut struct {
	Path string
	// Reason is one of the Left* reasons; Detail says more of this file
	// (the format it came closest to and what it lacked), or "".
	Reason string
	Detail string
	// Folder marks a folder not walked (a tool's folder, a link back
	// into the tree), as opposed to a file.
	Folder bool
}

// Why a walk leaves a file or folder out; Discovery.Line counts them by
// these words.
const (
	LeftNotData    = "not a data file"      // a name no format reads (.txt, .py, .png)
	LeftNoFormat   = "no format recognised" // JSON, a zip or parquet no format claims
	LeftNotes      = "evalview's notes"     // a notes sidecar, its lock
	LeftNotRegular = "not a regular file"   // a FIFO, a socket, a device
	LeftUnreadable = "unreadable"           // a permission, an I/O error
	LeftTool       = "a tool's folder"      // .git, node_modules, .venv...
	LeftLoop       = "a link to a folder read already"
	LeftDeep       = "too deep" // below MaxDepth folders
	LeftBrokenLink = "a link to nothing"
)

// Files counts the files left out, and Folders the folders.
func (d Discovery) Files() (files, folders int) {
	for _, l := range d.LeftOut {
		if l.Folder {
			folders++
		} else {
			files++
		}
	}
	return files, folders
}

// Reasons counts what was left out by reason, most first (then by name).
func (d Discovery) Reasons() []ReasonCount {
	n := map[string]*ReasonCount{}
	var out []*ReasonCount
	for _, l := range d.LeftOut {
		rc := n[l.Reason]
		if rc == nil {
			rc = &ReasonCount{Reason: l.Reason}
			n[l.Reason] = rc
			out = append(out, rc)
		}
		if l.Folder {
			rc.Folders++
		} else {
			rc.Files++
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Files+out[i].Folders, out[j].Files+out[j].Folders
		if a != b {
			return a > b
		}
		return out[i].Reason < out[j].Reason
	})
	res := make([]ReasonCount, len(out))
	for i, rc := range out {
		res[i] = *rc
	}
	return res
}

// ReasonCount is how many files and folders were left out for Reason.
type ReasonCount struct {
	Reason         string
	Files, Folders int
}

// ListHint is how to list what a walk left out, which Line ends with.
const ListHint = "evalview check --list-skipped lists them"

// Line says in one line what the walk opened and left out:
// "12 artifacts opened (30 datasets); 3 files left out (2 not a data
// file, 1 no format recognised), 1 folder not read (a tool's folder):
// evalview check --list-skipped lists them".
func (d Discovery) Line() string {
	var b strings.Builder
	b.WriteString(plural(d.Artifacts, "artifact") + " opened")
	if d.Datasets != d.Artifacts {
		fmt.Fprintf(&b, " (%s)", plural(d.Datasets, "dataset"))
	}
	files, folders := d.Files()
	if files == 0 && folders == 0 {
		b.WriteString("; nothing left out")
		return b.String()
	}
	if files+folders == 1 {
		// One thing left out is named, with why: a folder whose only
		// file cannot be read says which file, not just a count.
		l := d.LeftOut[0]
		what, verb := "file", "left out"
		if l.Folder {
			what, verb = "folder", "not read"
		}
		why := l.Reason
		if l.Detail != "" {
			why += ": " + l.Detail
		}
		fmt.Fprintf(&b, "; 1 %s %s: %s (%s)", what, verb, relTo(d.Folder, l.Path), why)
		return b.String()
	}
	var fileWhy, dirWhy []string
	for _, rc := range d.Reasons() {
		if rc.Files > 0 {
			fileWhy = append(fileWhy, fmt.Sprintf("%d %s", rc.Files, rc.Reason))
		}
		if rc.Folders > 0 {
			dirWhy = append(dirWhy, fmt.Sprintf("%d %s", rc.Folders, rc.Reason))
		}
	}
	sep := "; "
	if files > 0 {
		fmt.Fprintf(&b, "%s%s left out (%s)", sep, plural(files, "file"), strings.Join(fileWhy, ", "))
		sep = ", "
	}
	if folders > 0 {
		fmt.Fprintf(&b, "%s%s not read (%s)", sep, plural(folders, "folder"), strings.Join(dirWhy, ", "))
	}
	b.WriteString(": " + ListHint)
	return b.String()
}

// DiscoveryLine is the line of several folders' discoveries: each one's,
// prefixed by its folder when there are several; "" for none.
func DiscoveryLine(ds []Discovery) string {
	switch len(ds) {
	case 0:
		return ""
	case 1:
		return ds[0].Line()
	}
	var sum Discovery
	for _, d := range ds {
		sum.Artifacts += d.Artifacts
		sum.Datasets += d.Datasets
		for _, l := range d.LeftOut {
			// Named from its folder's name on: "sample/images/a.png",
			// not a temporary folder's whole path.
			if r := relTo(d.Folder, l.Path); r != l.Path {
				l.Path = lastElem(d.Folder) + "/" + r
			}
			sum.LeftOut = append(sum.LeftOut, l)
		}
	}
	return fmt.Sprintf("%d folders: %s", len(ds), sum.Line())
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// relTo is path p as written below folder (p itself when it is not below
// it); a pure string operation on either separator.
func relTo(folder, p string) string {
	if folder == "" {
		return p
	}
	f := strings.TrimRight(folder, `/\`)
	if len(p) > len(f)+1 && strings.HasPrefix(p, f) && (p[len(f)] == '/' || p[len(f)] == '\\') {
		return p[len(f)+1:]
	}
	return p
}

// lastElem is the last element of path p, on either separator.
func lastElem(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
