package opencompass

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/outdir"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// unit is one model's dataset in a work folder: the files its dataset is
// read from.
type unit struct {
	model, judge, dataset string
	// preds are the predictions files in order: the whole file, or the
	// partitioner's splits <dataset>_0.json, _1.json, ...
	preds []string
	// tmp is an unfinished inference's checkpoint, read when there is
	// no predictions file.
	tmp string
	// results is the evaluator's results file.
	results string
	// judgeRaw are an LLM judge's own outputs beside the results
	// (results/<model>/<dataset>_replica<k>.json), kept as companions.
	judgeRaw []string
}

// files are every file the unit is read from.
func (u *unit) files() []string {
	out := append([]string(nil), u.preds...)
	for _, f := range []string{u.tmp, u.results} {
		if f != "" {
			out = append(out, f)
		}
	}
	return append(out, u.judgeRaw...)
}

// modelFolders lists the model folders of predictions/ or results/, and
// each one's files.
func modelFolders(dir string) ([]string, map[string][]string) {
	return outdir.ModelFiles(dir, func(string) bool { return true })
}

// units reads a work folder's layout.
func units(root string) []*unit {
	predModels, predFiles := modelFolders(source.Join(root, "predictions"))
	resModels, resFiles := modelFolders(source.Join(root, "results"))
	byKey := map[[3]string]*unit{}
	var order [][3]string
	get := func(m, j, d string) *unit {
		k := [3]string{m, j, d}
		u := byKey[k]
		if u == nil {
			u = &unit{model: m, judge: j, dataset: d}
			byKey[k] = u
			order = append(order, k)
		}
		return u
	}
	for _, m := range predModels {
		have := map[string]bool{}
		for _, f := range predFiles[m] {
			have[f] = true
		}
		results := map[string]bool{}
		for _, f := range resFiles[m] {
			results[f] = true
		}
		splits := map[string][]string{}
		for _, f := range predFiles[m] {
			p := source.Join(root, "predictions", m, f)
			switch {
			case strings.HasPrefix(f, "tmp_") && (strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".jsonl")):
				d := strings.TrimPrefix(strings.TrimSuffix(strings.TrimSuffix(f, ".jsonl"), ".json"), "tmp_")
				get(m, "", d).tmp = p
			case strings.HasSuffix(f, ".json"):
				stem := strings.TrimSuffix(f, ".json")
				// <dataset>_<k>.json is a split when the partitioner's
				// first part is there, the whole file is not, and no
				// results file names the part as a dataset of its own.
				if s := splitSuffix.FindStringSubmatch(stem); s != nil && have[s[1]+"_0.json"] && !have[s[1]+".json"] && !results[f] {
					splits[s[1]] = append(splits[s[1]], f)
					continue
				}
				get(m, "", stem).preds = []string{p}
			}
		}
		for d, fs := range splits {
			sort.Slice(fs, func(a, b int) bool { return splitIndex(fs[a]) < splitIndex(fs[b]) })
			u := get(m, "", d)
			for _, f := range fs {
				u.preds = append(u.preds, source.Join(root, "predictions", m, f))
			}
		}
	}
	for _, folderName := range resModels {
		m, j := splitJudge(folderName)
		for _, f := range resFiles[folderName] {
			if !strings.HasSuffix(f, ".json") {
				continue
			}
			stem := strings.TrimSuffix(f, ".json")
			p := source.Join(root, "results", folderName, f)
			if base, ok := replicaOf(stem); ok && slices.Contains(resFiles[folderName], base+".json") {
				get(m, j, base).judgeRaw = append(get(m, j, base).judgeRaw, p)
				continue
			}
			get(m, j, stem).results = p
		}
	}
	var out []*unit
	for _, k := range order {
		u := byKey[k]
		if u.judge == "" && u.results == "" {
			// Predictions judged elsewhere are read by the judged unit.
			judged := false
			for _, k2 := range order {
				if k2[0] == k[0] && k2[2] == k[2] && k2[1] != "" {
					judged = true
				}
			}
			if judged {
				continue
			}
		}
		out = append(out, u)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].model != out[b].model {
			return out[a].model < out[b].model
		}
		if out[a].dataset != out[b].dataset {
			return out[a].dataset < out[b].dataset
		}
		return out[a].judge < out[b].judge
	})
	// A judged unit reads its model's predictions.
	for _, u := range out {
		if u.judge != "" && len(u.preds) == 0 && u.tmp == "" {
			if p := byKey[[3]string{u.model, "", u.dataset}]; p != nil {
				u.preds, u.tmp = p.preds, p.tmp
			}
		}
	}
	return out
}

// replicaOf splits an LLM judge's output name, <dataset>_replica<k>.
func replicaOf(stem string) (string, bool) {
	i := strings.LastIndex(stem, "_replica")
	if i < 0 {
		return "", false
	}
	if _, err := strconv.Atoi(stem[i+len("_replica"):]); err != nil {
		return "", false
	}
	return stem[:i], true
}

func splitIndex(name string) int {
	s := splitSuffix.FindStringSubmatch(strings.TrimSuffix(name, ".json"))
	if s == nil {
		return -1
	}
	n, _ := strconv.Atoi(s[2])
	return n
}

// openWork opens a work folder's datasets: every unit, or the one w
// names, with the summary's values.
func openWork(root string, w *want) ([]*model.Dataset, error) {
	us := units(root)
	stamp := filepath.Base(root)
	sum, sumErr := latestSummary(root)
	var out []*model.Dataset
	var errs []error
	for _, u := range us {
		if w != nil && !slices.Contains(u.files(), w.file) {
			continue
		}
		ds, err := buildUnit(root, stamp, u, sum)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, ds)
	}
	if w == nil && sum != nil {
		out = append(out, summaryOnly(root, stamp, sum, us)...)
	}
	if sumErr != nil && w == nil {
		if len(out) == 0 {
			// Nothing else to show it on: the folder's error.
			errs = append(errs, fmt.Errorf("%s: %w", sumErr.path, sumErr.err))
		} else {
			out[0].Issues = append(out[0].Issues, model.Errorf(jsonl.ReadCode(sumErr.err, "bad-json"), sumErr.path, 0, "", "%v", sumErr.err))
		}
	}
	if len(out) == 0 && len(errs) == 0 {
		if w != nil {
			return nil, errors.New("no OpenCompass predictions or results for this file in its work folder")
		}
		return nil, errors.New("an OpenCompass work folder without predictions, results or a summary")
	}
	return out, errors.Join(errs...)
}

// openLoose opens a predictions file away from a work folder: its
// records, no results.
func openLoose(path string) ([]*model.Dataset, error) {
	stem := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".jsonl"), ".json")
	u := &unit{dataset: strings.TrimPrefix(stem, "tmp_")}
	if strings.HasPrefix(stem, "tmp_") {
		u.tmp = path
	} else {
		u.preds = []string{path}
	}
	ds, err := buildUnit(source.Dir(path), "", u, nil)
	if err != nil {
		return nil, err
	}
	return []*model.Dataset{ds}, nil
}
