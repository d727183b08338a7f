package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"evalview/internal/termsafe"
	"evalview/loaders"
	"evalview/model"
)

// jsonIssue is one issue of `check --json`; the field names are a contract.
type jsonIssue struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Record   string `json:"record"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Path     string `json:"path,omitempty"`
	// Items lists what one issue is about when it is about many (the
	// score files of a run without samples/); the text output gives only
	// their count.
	Items []string `json:"items,omitempty"`
}

func newCheckCmd(stdout, stderr io.Writer, common *commonFlags) *cobra.Command {
	var (
		asJSON  bool
		maxShow int
		fast    bool
		strict  bool
		totals  bool
		skipped bool
	)
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...",
		Short: "Validate artifacts and print every issue (exit 1 on errors)",
		Long: `check loads every path with the same loaders as the browser and prints each
validation issue as

  FILE[:LINE]: error|warning|note: [RECORD] MESSAGE

followed by a one-line total.

For lm-eval samples it also runs the deep check: every filter pipeline of
the task config is re-applied to every repeat, and an answer that differs
from the logged filtered_resps is a warning (reextract-mismatch), a logged
exact_match its answer does not give another (rescore-mismatch). Without
the task config, a filter is re-applied with the harness default for its
name, and the answers that default does not give are one note per filter
(reextract-default-differs), not findings. --fast skips it.

A note is no finding: it says how evalview read a file where it had to
infer something (the filter of each row of an old harness's samples).

Every difference summary marks between a reported metric and the one
recomputed from the records (or a group's from its subtasks) is a
warning (metric-differs) with its size, and says when one value is 100
times the other (a percent written for a fraction).

A folder is read at any depth, every file as the format its name and
first bytes show; only tools' folders (.git, node_modules, .venv,
__pycache__, .cache...) are passed over. Each folder opened ends with a
line (a note, code folder-read, not counted in the total) saying how
many artifacts were opened and how many files were left out, by reason
(not a data file, no format recognised, a tool's folder...);
--list-skipped lists them, and --json gives them as that note's "items".

Each issue has a stable code (the "code" field of --json), one of:

` + codesHelp(78) + `

--strict fails (exit 1) on warnings too. --json-summary prints the totals
as one JSON object instead of the issues:
  {"errors":4,"warnings":4,"notes":0,"datasets":1,"records":4,
   "open_failed":0,"codes":{"bad-json":1,...},"exit":1,
   "artifacts":3,"left_out":{"not a data file":2}}

Exit codes: 0 when there is no error (warnings and notes allowed; with
--strict, no warning either), 1 when there are errors (or, with --strict,
warnings), 2 when a path cannot be opened at all.`,
		Example: `  evalview check results/my-model/
  evalview check --json samples_gsm8k_2025-08-07T11-42-40.066002.jsonl | jq '.[].code'
  evalview check --as sample data.jsonl
  evalview check --strict --json-summary results/ | jq .warnings
  evalview check --list-skipped outputs/   # what the folder holds that was not read`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && totals {
				return usageError(stderr, fmt.Errorf("--json prints the issues, --json-summary their totals: give one"))
			}
			if !fast {
				tuneBatchGC(args)
			} else {
				holdBatchBudget(args)
			}
			// Datasets come one at a time and are dropped; only their
			// issues stay, to be sorted.
			var issues []model.Issue
			var found []model.Discovery
			records, datasets := 0, 0
			openErrs, err := eachDatasetFound(args, common, !fast, stderr, func(d model.Discovery) { found = append(found, d) }, func(ds *model.Dataset, _ artifactNotes) error {
				own := datasetIssues(cmd.Context(), ds, !fast)
				issues = append(issues, own...)
				issues = append(issues, differIssues(ds, own)...)
				records += ds.Records.Len()
				datasets++
				return nil
			})
			if err != nil {
				return err
			}
			opened := make([]model.Issue, 0, len(openErrs)+len(issues))
			for _, e := range openErrs {
				opened = append(opened, openIssue(e))
			}
			issues = append(opened, issues...)
			model.SortIssues(issues)
			folders := make([]model.Issue, len(found))
			for i, d := range found {
				folders[i] = folderIssue(d)
			}
			exit := checkExit(issues, len(openErrs), strict)
			switch {
			case totals:
				if err := writeCheckTotals(stdout, issues, datasets, records, len(openErrs), exit, found); err != nil {
					return err
				}
			case asJSON:
				out := make([]jsonIssue, 0, len(issues)+len(folders))
				for _, is := range append(issues, folders...) {
					out = append(out, jsonIssue{File: is.File, Line: is.Line, Record: is.Record, Severity: is.Severity.String(), Code: is.Code, Message: is.Message, Path: is.Path, Items: is.Items})
				}
				enc := json.NewEncoder(termsafe.JSONWriter{W: stdout})
				enc.SetIndent("", "  ")
				if err := enc.Encode(out); err != nil {
					return err
				}
			default:
				shown := 0
				for _, is := range issues {
					if maxShow > 0 && shown >= maxShow {
						break
					}
					// Issues quote file content (record ids, names in
					// zips): never let it reach the terminal raw.
					fmt.Fprintln(stdout, termsafe.Line(is.String()))
					shown++
				}
				if maxShow > 0 && len(issues) > maxShow {
					fmt.Fprintf(stdout, "... %d more issues not shown (--max %d)\n", len(issues)-maxShow, maxShow)
				}
				// Each folder's line comes last, before the total: what
				// was opened, and what was left out.
				for i, is := range folders {
					fmt.Fprintln(stdout, termsafe.Line(is.String()))
					if skipped {
						for _, l := range found[i].LeftOut {
							fmt.Fprintln(stdout, "  "+termsafe.Line(leftOutText(l)))
						}
					}
				}
				e, w := model.CountIssues(issues)
				notes := ""
				if n := model.CountNotes(issues); n > 0 {
					notes = ", " + count(n, "note") // how a file was read, not a finding
				}
				fmt.Fprintf(stdout, "%s, %s%s in %s (%s)\n", count(e, "error"), count(w, "warning"), notes, count(datasets, "dataset"), count(records, "record"))
			}
			if exit != 0 {
				return exitError{exit}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of issues (file, line, record, severity, code, message)")
	cmd.Flags().IntVar(&maxShow, "max", 0, "print at most this many issues (0: all); the total still counts every issue")
	cmd.Flags().BoolVar(&strict, "strict", false, "fail (exit 1) on warnings too, not only on errors")
	cmd.Flags().BoolVar(&totals, "json-summary", false, "print the totals as one JSON object (errors, warnings, notes, datasets, records, open_failed, codes, exit) instead of the issues")
	cmd.Flags().BoolVar(&fast, "fast", false, "skip the deep check (lm-eval: re-applying the filter pipelines to every repeat)")
	cmd.Flags().BoolVar(&skipped, "list-skipped", false, "list every file and folder of the folders opened that was left out, with why (--json gives them as the folder-read note's items)")
	return cmd
}

// folderIssue is the note that ends the check of a folder: what its walk
// opened and left out (its Items list each file left out, for --json).
func folderIssue(d model.Discovery) model.Issue {
	is := model.Notef("folder-read", d.Folder, 0, "", "%s", d.Line())
	for _, l := range d.LeftOut {
		is.Items = append(is.Items, leftOutText(l))
	}
	return is
}

// leftOutText is one file or folder left out: "PATH: REASON[: DETAIL]".
func leftOutText(l model.LeftOut) string {
	s := l.Path
	if l.Folder {
		s += "/"
	}
	s += ": " + l.Reason
	if l.Detail != "" {
		s += ": " + l.Detail
	}
	return s
}

// openIssue turns a path that could not be opened into an error issue, so
// `check --json` reports it too.
func openIssue(err error) model.Issue {
	var oe *loaders.OpenError
	if errors.As(err, &oe) {
		return model.Errorf("open-failed", oe.Path, 0, "", "cannot open: %v", oe.Err)
	}
	return model.Errorf("open-failed", "", 0, "", "%v", err)
}

func hasErrors(issues []model.Issue) bool {
	for _, is := range issues {
		if is.Severity == model.SeverityError {
			return true
		}
	}
	return false
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// indexedIssues is implemented by indexes that know each record's issues
// from indexing alone, all but those their deep check finds (lm-eval: the
// re-extraction's; a run has none). check then reads every record at most
// once, in the deep check, instead of loading each record and then
// re-extracting it again.
type indexedIssues interface {
	IndexIssues(i int) []model.Issue
}

// datasetIssues returns ds's own issues and every record's, with the deep
// check's when deep is set.
func datasetIssues(ctx context.Context, ds *model.Dataset, deep bool) []model.Issue {
	x, ok := ds.Records.(indexedIssues)
	if !ok {
		all, err := ds.AllIssues()
		if err != nil {
			all = append(all, model.Errorf("read-failed", ds.Path, 0, "", "%v", err))
		}
		if deep {
			all = mergeDeep(ctx, all, ds)
		}
		return all
	}
	all := append([]model.Issue(nil), ds.Issues...)
	for i := 0; i < ds.Records.Len(); i++ {
		all = append(all, x.IndexIssues(i)...)
	}
	if deep {
		all = mergeDeep(ctx, all, ds)
	}
	return all
}

// mergeDeep runs ds's deep check and adds the issues it found that are not
// already in issues (loading a record may report the same ones). A failed
// deep check is an error issue.
func mergeDeep(ctx context.Context, issues []model.Issue, ds *model.Dataset) []model.Issue {
	if ds.Deep == nil {
		return issues
	}
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := ds.Deep(ctx, nil)
	if err != nil {
		return append(issues, model.Errorf("deep-check-failed", ds.Path, 0, "", "deep check stopped: %v", err))
	}
	seen := make(map[issueKey]bool, len(issues))
	for _, is := range issues {
		seen[keyOf(is)] = true
	}
	for _, is := range rep.Issues {
		if k := keyOf(is); !seen[k] {
			seen[k] = true
			issues = append(issues, is)
		}
	}
	return issues
}

// issueKey is an issue without its Items list, which a map key cannot
// hold: two issues alike in all the rest are the same finding.
type issueKey struct {
	sev                             model.Severity
	code, message, file, record, jp string
	line                            int
}

func keyOf(is model.Issue) issueKey {
	return issueKey{is.Severity, is.Code, is.Message, is.File, is.Record, is.Path, is.Line}
}
