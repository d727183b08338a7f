package loaders

import (
	"path/filepath"

	"evalview/loaders/evalscope"
	"evalview/loaders/helm"
	"evalview/loaders/inspect"
	"evalview/loaders/lighteval"
	"evalview/loaders/lmeval"
	"evalview/loaders/opencompass"
	"evalview/loaders/plain"
	"evalview/loaders/promptfoo"
	"evalview/loaders/runzip"
	"evalview/loaders/sample"
	"evalview/loaders/testset"
	"evalview/model"
)

// format is one artifact format's entry points, each implemented by the
// format's own subpackage; formats lists them in detection order.
type format struct {
	kind model.Kind
	// sniffFile scores how likely a file is of this format from its name
	// and first bytes: 0 no, 1 maybe (content fits), 2 sure (name and
	// content fit).
	sniffFile func(name string, head []byte) int
	// sniffPath, when set, is used instead of sniffFile: it scores a file
	// from its whole path (the folders it sits in tell too).
	sniffPath func(path string, head []byte) int
	// sniffDir scores a folder the same way from its entries' names.
	sniffDir func(dir string, names []string) int
	// dirMax, when not 0, is the most sniffDir ever scores: a folder that
	// another format scored as high is not sniffed again (the JSON Lines
	// formats read up to 50 files' heads to score 1, for each model
	// folder of an lm-eval output folder).
	dirMax int
	// fileMax, when not 0, is the most sniffFile and sniffPath ever
	// score: a file that a format before it scored as high is not
	// sniffed again (ties go to the format found first). A samples file
	// scores 2 for lm-eval, and the testset sniffer would otherwise
	// decode its head's JSON, a third of the opening of a small file.
	fileMax int
	// open loads a file or folder of this format.
	open func(path string) ([]*model.Dataset, error)
	// openMany, when set, loads several files of this format together
	// (lm-eval joins samples and results of one run). Nil means open each.
	openMany func(paths []string) ([]*model.Dataset, error)
	// each, when set, opens a folder of this format handing over each
	// dataset as soon as it is loaded (see Each).
	each func(path string, fn func(*model.Dataset) error) error
	// fallback marks the format that takes what no other one claims:
	// detected, not forced, its datasets get a warning that says so and
	// names --as.
	fallback bool
	// present, when set, fills a dataset's Presentation after the
	// format's loader built it (formats whose loader leaves it zero).
	present func(*model.Dataset)
	// shares marks a format whose folder, claimed whole, may hold other
	// artifacts beside its own files (a run folder or a JSON Lines file
	// beside an lm-eval run's samples): those open too.
	shares bool
	// unit, when set, tells a folder that is one artifact of the format
	// from its entries' names (folders ending in "/"): the walk of a
	// tree opens it whole and goes no further down (a run folder's
	// samples/ and scores/, an EvalScope output folder's predictions/
	// and reviews/ are its own).
	unit func(dir string, names []string) bool
}

func formats() []format {
	return []format{
		{kind: model.KindLMEval, sniffFile: lmeval.SniffFile, sniffDir: lmeval.SniffDir, open: lmeval.Open, openMany: lmeval.OpenMany, each: lmeval.Each, shares: true},
		{kind: model.KindRun, sniffFile: runzip.SniffFile, sniffDir: runzip.SniffDir, fileMax: 2, open: runzip.Open, unit: runzip.IsRunFolder},
		{kind: model.KindSample, sniffFile: sample.SniffFile, sniffDir: sample.SniffDir, dirMax: 1, fileMax: 2, open: sample.Open, each: sample.Each},
		{kind: model.KindTestset, sniffFile: testset.SniffFile, sniffPath: testset.SniffPath, sniffDir: testset.SniffDir, dirMax: 1, fileMax: 2, open: testset.Open, each: testset.Each},
		{kind: model.KindInspect, sniffFile: inspect.SniffFile, sniffDir: inspect.SniffDir, open: inspect.Open, present: inspect.Present},
		{kind: model.KindLighteval, sniffFile: lighteval.SniffFile, sniffDir: lighteval.SniffDir, open: lighteval.Open, present: lighteval.Present},
		{kind: model.KindEvalScope, sniffFile: evalscope.SniffFile, sniffDir: evalscope.SniffDir, open: evalscope.Open,
			unit: evalscope.IsOutputFolder},
		{kind: model.KindOpenCompass, sniffFile: opencompass.SniffFile, sniffPath: opencompass.SniffPath, sniffDir: opencompass.SniffDir, open: opencompass.Open,
			unit: opencompass.IsWorkFolder},
		{kind: model.KindHELM, sniffFile: helm.SniffFile, sniffDir: helm.SniffDir, open: helm.Open,
			unit: func(_ string, names []string) bool { return helm.IsRunFolder(names) }},
		{kind: model.KindPromptfoo, sniffFile: promptfoo.SniffFile, sniffDir: promptfoo.SniffDir, dirMax: 3, open: promptfoo.Open},
		// Last: it scores 1 on any JSON Lines, and ties go to the formats above.
		{kind: model.KindJSONL, sniffFile: plain.SniffFile, sniffDir: plain.SniffDir, dirMax: 1, fileMax: 1, open: plain.Open, each: plain.Each, fallback: true, present: plain.Present},
	}
}

// presented hands fn the format's datasets with their Presentation
// filled by f.present, when the format has one.
func (f format) presented(fn func(*model.Dataset) error) func(*model.Dataset) error {
	if f.present == nil {
		return fn
	}
	return func(ds *model.Dataset) error {
		f.present(ds)
		return fn(ds)
	}
}

// with returns the format's entry points for opt (lm-eval's, Inspect's
// and plain JSON Lines' background ones when opt.Background is set).
func (f format) with(opt Options) format {
	switch {
	case f.kind == model.KindInspect && opt.Background:
		f.open = inspect.OpenBackground
	case f.kind == model.KindJSONL && opt.Background:
		f.open, f.each = plain.OpenBackground, plain.EachBackground
	case f.kind != model.KindLMEval:
	case opt.Background:
		f.open, f.openMany, f.each = lmeval.OpenBackground, lmeval.OpenManyBackground, nil
	case opt.Deep:
		f.open, f.openMany, f.each = lmeval.OpenForDeep, lmeval.OpenManyForDeep, lmeval.EachForDeep
	}
	return f
}

// sniff scores a file of this format (sniffPath, else sniffFile; 0 for
// a format that sniffs only folders).
func (f format) sniff(path string, head []byte) int {
	switch {
	case f.sniffPath != nil:
		return f.sniffPath(path, head)
	case f.sniffFile != nil:
		return f.sniffFile(filepath.Base(path), head)
	}
	return 0
}

func formatOf(k model.Kind) (format, bool) {
	for _, f := range formats() {
		if f.kind == k {
			return f, true
		}
	}
	return format{}, false
}
