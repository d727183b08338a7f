package lmeval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// Pairing by content. The harness pairs a results file with its samples
// files by their names (the same timestamp); users rename files by hand
// ("gemma_0shot.json", "gsm8k.jsonl"), and then the names say nothing.
// What the files say is the task: a results file's task_hashes (harness
// 0.4.3 and later) holds, for each task, the SHA-256 of its samples'
// doc_hash + prompt_hash + target_hash, joined in the order the samples
// file lists them (EvaluationTracker.save_results_aggregated). A samples
// file whose own rows give that hash is that task's samples. The hash
// depends on the documents and prompts, not on the answers: two runs of
// one task with the same settings give the same hash, so a samples file
// that two results files of its folder claim is paired with neither
// (ambiguous), and says so.

// contentPair is a samples file paired by its content: its run's results
// file and its task there.
type contentPair struct {
	r    *results
	task string
}

// pairByContent pairs the samples files that their names do not pair
// with a results file of their folder (matchResults finds none), or that
// their names pair with a results file not listing their task, by the
// task hashes of the results files of their folder. ambiguous lists, for
// a samples file that several results files claim, their paths.
func pairByContent(samples []string, res []*results) (pairs map[string]contentPair, ambiguous map[string][]string) {
	pairs, ambiguous = map[string]contentPair{}, map[string][]string{}
	for _, sp := range samples {
		named := matchResults(sp, res)
		if named != nil && slices.Contains(named.Tasks, taskOf(sp, named)) {
			continue // the name tells
		}
		var cands []*results
		for _, r := range res {
			if len(r.TaskHashes) > 0 && source.Dir(r.Path) == source.Dir(sp) && (named == nil || r == named) {
				cands = append(cands, r)
			}
		}
		if len(cands) == 0 {
			continue
		}
		h, ok := samplesHash(sp)
		if !ok {
			continue
		}
		var found []contentPair
		for _, r := range cands {
			for _, t := range r.Tasks {
				if r.TaskHashes[t] == h {
					found = append(found, contentPair{r, t})
				}
			}
		}
		switch len(found) {
		case 0:
		case 1:
			pairs[sp] = found[0]
		default:
			for _, f := range found {
				ambiguous[sp] = append(ambiguous[sp], f.r.Path)
			}
		}
	}
	return pairs, ambiguous
}

// pairOf is the results file of samples file sp and its task there ("":
// the name tells): paired by content where it was, else by name.
func pairOf(sp string, res []*results, byContent map[string]contentPair) (*results, string) {
	if p, ok := byContent[sp]; ok {
		return p.r, p.task
	}
	return matchResults(sp, res), ""
}

// ambiguousIssues warns that several results files of sp's folder list
// its task with the same documents and prompts, so that none of them is
// paired with it: their reported metrics are not put beside its rows.
func ambiguousIssues(sp string, ambiguous map[string][]string) []model.Issue {
	rs := ambiguous[sp]
	if len(rs) == 0 {
		return nil
	}
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = filepath.Base(r)
	}
	return []model.Issue{model.Warnf("ambiguous-results", sp, 0, "",
		"its rows are the task of %d results files here (%s: the same documents and prompts, task_hashes): neither its name nor its content tells which run it is, so no reported metric is put beside it; rename it samples_<task>_<timestamp of its run>.jsonl to pair it",
		len(rs), strings.Join(names, ", "))}
}

// samplesHash is the hash a results file's task_hashes gives a samples
// file's task, computed from the file's rows; false when a row lacks the
// hashes (a harness before 0.4.3, a row broken), which the results file
// cannot then name either.
func samplesHash(path string) (string, bool) {
	r, _, err := jsonl.OpenStream(path)
	if err != nil {
		return "", false
	}
	defer r.Close()
	h := sha256.New()
	rows := 0
	var row struct {
		Doc    *string `json:"doc_hash"`
		Prompt *string `json:"prompt_hash"`
		Target *string `json:"target_hash"`
	}
	err = jsonl.ScanLines(r, func(l jsonl.Line) error {
		if jsonl.IsBlank(l.Data) {
			return nil
		}
		row.Doc, row.Prompt, row.Target = nil, nil, nil
		if err := json.Unmarshal(l.Data, &row); err != nil || row.Doc == nil || row.Prompt == nil || row.Target == nil {
			return errNoHash
		}
		h.Write([]byte(*row.Doc + *row.Prompt + *row.Target))
		rows++
		return nil
	})
	if err != nil || rows == 0 {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

type noHash struct{}

func (noHash) Error() string { return "a row without its hashes" }

var errNoHash error = noHash{}
