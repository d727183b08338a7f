package evalscope

import (
	"bufio"
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"evalview/loaders/internal/outdir"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// unit is one model's dataset in an output folder: its subsets' files
// and its report.
type unit struct {
	model, dataset string
	subsets        []*subset
	report         string
	// split says how the files' names were split into dataset and
	// subset: "" by the report or the config; else why they were not.
	split string
}

// subset is one subset's prediction and review files.
type subset struct {
	name         string
	pred, review string
}

func (u *unit) files() []string {
	var out []string
	for _, s := range u.subsets {
		for _, f := range []string{s.pred, s.review} {
			if f != "" {
				out = append(out, f)
			}
		}
	}
	if u.report != "" {
		out = append(out, u.report)
	}
	return out
}

// modelFiles lists the files of each model folder of dir
// (predictions/, reviews/ or reports/), with the given extension.
func modelFiles(dir, ext string) ([]string, map[string][]string) {
	return outdir.ModelFiles(dir, func(f string) bool { return strings.HasSuffix(f, ext) })
}

// configDatasets are the datasets an output folder's task config lists
// (configs/*.yaml, its "datasets:" list), for splitting file names when
// there is no report.
func configDatasets(root string) []string {
	names, err := outdir.Entries(source.Join(root, "configs"))
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range names {
		if !strings.HasSuffix(n, ".yaml") && !strings.HasSuffix(n, ".yml") {
			continue
		}
		data, err := jsonl.ReadRegular(source.Join(root, "configs", n), maxConfig)
		if err != nil {
			continue // the files' names are then split by the reports alone, or not (subset-unknown says so)
		}
		in := false
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, "datasets:"):
				in = true
				// A flow list: datasets: [gsm8k, arc]
				if rest := strings.TrimSpace(strings.TrimPrefix(l, "datasets:")); strings.HasPrefix(rest, "[") {
					for _, d := range strings.Split(strings.Trim(rest, "[]"), ",") {
						if d = strings.Trim(strings.TrimSpace(d), `'"`); d != "" {
							out = append(out, d)
						}
					}
					in = false
				}
			case in && strings.HasPrefix(strings.TrimLeft(l, " "), "- "):
				out = append(out, strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(l, " "), "- ")), `'"`))
			case in && strings.TrimSpace(l) != "":
				in = false
			}
		}
	}
	return out
}

// units reads an output folder's layout. A file <dataset>_<subset>.jsonl
// is split by the datasets the model's reports name (the longest that
// fits), else those of the task config; a name neither tells is a
// dataset of its own, its subset unknown.
func units(root string) []*unit {
	predModels, predFiles := modelFiles(source.Join(root, "predictions"), ".jsonl")
	revModels, revFiles := modelFiles(source.Join(root, "reviews"), ".jsonl")
	repModels, repFiles := modelFiles(source.Join(root, "reports"), ".json")
	cfg := configDatasets(root)
	var models []string
	seen := map[string]bool{}
	for _, ms := range [][]string{predModels, revModels, repModels} {
		for _, m := range ms {
			if !seen[m] {
				seen[m] = true
				models = append(models, m)
			}
		}
	}
	sort.Strings(models)
	var out []*unit
	for _, m := range models {
		var known []string
		for _, f := range repFiles[m] {
			known = append(known, strings.TrimSuffix(f, ".json"))
		}
		known = append(known, cfg...)
		byName := map[string]*unit{}
		var order []string
		get := func(d string) *unit {
			u := byName[d]
			if u == nil {
				u = &unit{model: m, dataset: d}
				byName[d] = u
				order = append(order, d)
			}
			return u
		}
		sub := func(u *unit, name string) *subset {
			for _, s := range u.subsets {
				if s.name == name {
					return s
				}
			}
			s := &subset{name: name}
			u.subsets = append(u.subsets, s)
			return s
		}
		for _, f := range repFiles[m] {
			get(strings.TrimSuffix(f, ".json")).report = source.Join(root, "reports", m, f)
		}
		for _, kind := range []string{"predictions", "reviews"} {
			files := predFiles[m]
			if kind == "reviews" {
				files = revFiles[m]
			}
			for _, f := range files {
				stem := strings.TrimSuffix(f, ".jsonl")
				d, s, ok := splitName(stem, known)
				u := get(d)
				if !ok {
					u.split = "neither a report nor the task config names the dataset: the file's name is taken whole"
				}
				ss := sub(u, s)
				p := source.Join(root, kind, m, f)
				if kind == "predictions" {
					ss.pred = p
				} else {
					ss.review = p
				}
			}
		}
		sort.Strings(order)
		for _, d := range order {
			out = append(out, byName[d])
		}
	}
	return out
}

// splitName splits a file's stem into dataset and subset by the longest
// known dataset it starts with ("<dataset>_<subset>").
func splitName(stem string, known []string) (string, string, bool) {
	best := ""
	for _, k := range known {
		if strings.HasPrefix(stem, k+"_") && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return stem, "", false
	}
	return best, stem[len(best)+1:], true
}

// openOutput opens an output folder's datasets: every one, or the one
// file belongs to.
func openOutput(root, file string) ([]*model.Dataset, error) {
	stamp := filepath.Base(root)
	var out []*model.Dataset
	var errs []error
	for _, u := range units(root) {
		if file != "" && !slices.Contains(u.files(), file) {
			continue
		}
		ds, err := buildUnit(root, stamp, u)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, ds)
	}
	if len(out) == 0 && len(errs) == 0 {
		return nil, errors.New("an EvalScope output folder without predictions, reviews or reports")
	}
	return out, errors.Join(errs...)
}

// openLoose opens a prediction or review file away from its output
// folder: its records, its dataset named after the file.
func openLoose(path string) ([]*model.Dataset, error) {
	u := &unit{dataset: strings.TrimSuffix(filepath.Base(path), ".jsonl"), split: "away from its output folder: no report names the dataset"}
	s := &subset{}
	first := firstLineOf(path)
	if bytes.Contains(first, []byte(`"sample_score"`)) || bytes.Contains(first, []byte(`"reviewed"`)) {
		s.review = path
	} else if strings.HasSuffix(path, ".json") {
		u.report = path
		u.dataset = strings.TrimSuffix(filepath.Base(path), ".json")
		s = nil
	} else {
		s.pred = path
	}
	if s != nil {
		u.subsets = []*subset{s}
	}
	ds, err := buildUnit(source.Dir(path), "", u)
	if err != nil {
		return nil, err
	}
	return []*model.Dataset{ds}, nil
}

// firstLineOf is the first line of file path, at most maxLine bytes of
// it (nil when it cannot be read: its reading says why).
func firstLineOf(path string) []byte {
	f, err := jsonl.OpenRegular(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var first []byte
	_ = jsonl.ScanLinesMax(f, maxLine, func(l jsonl.Line) error {
		first = append([]byte(nil), l.Data...)
		return errFirst
	})
	return first
}

var errFirst = errors.New("the first line is read")
