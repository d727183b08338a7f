package content

import (
	"math"
	"strconv"
	"strings"

	"evalview/model"
	"evalview/model/compare"
	"evalview/tui/text"
)

// sideRow is what the Filters table adds to one filter row.
type sideRow struct {
	// extracted is evalview's own answer for the doc under the filter
	// ("" when it could not re-apply the pipeline); mismatch marks one that
	// disagrees with the logged answer.
	extracted string
	mismatch  bool
	// repeats is "c/n" of repeats right, "" without extractions.
	repeats string
	// differs marks a logged answer unlike the other filters' answers.
	differs bool
}

// side is the Filters table's extra columns, row by row.
type side struct {
	rows []sideRow
	// extracted and repeats tell whether the columns are worth showing.
	extracted, repeats bool
}

// sideBySide compares rec's filters: the re-extracted answers beside the
// logged ones, repeats right, and which logged answers differ from the
// others (those not among the most common answers; when the filters split
// evenly, all of them).
func sideBySide(rec *model.Record) side {
	out := side{rows: make([]sideRow, len(rec.Filters))}
	counts := map[string]int{}
	for _, f := range rec.Filters {
		counts[f.Answer]++
	}
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	tie := 0
	for _, c := range counts {
		if c == top {
			tie++
		}
	}
	for i, f := range rec.Filters {
		r := &out.rows[i]
		r.differs = len(counts) > 1 && (counts[f.Answer] < top || tie > 1)
		if v := compare.Votes(rec, f.Filter); len(v) > 0 {
			r.extracted = oneLineAnswer(v[0].Answer)
			r.mismatch = v[0].Answer != f.Answer
			out.extracted = true
		}
		for _, a := range rec.Attempts {
			for _, e := range a.Extractions {
				if e.Filter == f.Filter && e.Disagrees {
					r.mismatch = true
				}
			}
		}
		if n, c := compare.RepeatsRight(rec, f.Filter); n > 0 {
			r.repeats = strconv.Itoa(c) + "/" + strconv.Itoa(n)
			out.repeats = out.repeats || len(rec.Attempts) > 1
		}
	}
	return out
}

// extractionNotes lists, once each, what the re-extraction says about how
// it chose or could not run a pipeline (a harness default, an unsupported
// filter); per-repeat "not counted" notes are the histogram's business.
func (b *builder) extractionNotes(rec *model.Record) {
	seen := map[string]bool{}
	var notes []string
	for _, a := range rec.Attempts {
		for _, e := range a.Extractions {
			if e.Note == "" || strings.HasPrefix(e.Note, compare.NotCounted) {
				continue
			}
			n := text.OneLine(e.Filter) + ": " + e.Note
			if !seen[n] {
				seen[n] = true
				notes = append(notes, n)
			}
		}
	}
	if len(notes) == 0 {
		return
	}
	b.blank()
	for _, n := range notes {
		b.para("note: "+n, b.st.Detail.Subtle, 0)
	}
}

// votes writes, for a doc with several repeats, the vote histogram of
// each majority-vote filter (the selected one first): each distinct answer
// with its count as a bar, ✓/✗ against the target, the chosen one marked.
// When the selected filter keeps a single repeat (take_first), the
// histogram of every repeat's own answer under it follows, its chosen
// answer marked, so 64 repeats are never shown as one answer.
func (b *builder) votes(rec *model.Record, selected string) {
	if len(rec.Attempts) < 2 {
		return
	}
	names := []string{selected}
	for _, f := range rec.Filters {
		if f.Filter != selected {
			names = append(names, f.Filter)
		}
	}
	var single []compare.Vote
	for _, name := range names {
		votes := compare.Votes(rec, name)
		if len(votes) == 0 {
			continue
		}
		counted := 0
		for _, v := range votes {
			counted += v.Count
		}
		if counted < 2 {
			if name == selected {
				single = allVotes(rec, name, votes[0].Answer)
			}
			continue
		}
		b.blank()
		b.heading("Votes · " + text.OneLine(name) + " (" + text.Plural(counted, "repeat") + ")")
		b.histogram(votes)
	}
	if len(single) > 0 {
		b.blank()
		b.heading("Answers · " + text.OneLine(selected) + " (" + text.Plural(len(rec.Attempts), "repeat") + "; the filter keeps one)")
		b.histogram(single)
	}
}

// allVotes counts every repeat's own answer under filter, counted by the
// filter or not, marking chosen.
func allVotes(rec *model.Record, filter, chosen string) []compare.Vote {
	var out []compare.Vote
	index := map[string]int{}
	for _, a := range rec.Attempts {
		for _, e := range a.Extractions {
			if e.Filter != filter {
				continue
			}
			if i, ok := index[e.Answer]; ok {
				out[i].Count++
				continue
			}
			index[e.Answer] = len(out)
			out = append(out, compare.Vote{Answer: e.Answer, Count: 1, Correct: e.Status == model.StatusPass, Chosen: e.Answer == chosen})
		}
	}
	for i := 1; i < len(out); i++ { // stable: first seen first among equals
		for j := i; j > 0 && out[j].Count > out[j-1].Count; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// maxVoteRows caps a histogram: 64 repeats can give 64 distinct answers.
const maxVoteRows = 12

// histogram writes one line per vote: answer, bar, count, ✓/✗, chosen.
func (b *builder) histogram(votes []compare.Vote) {
	top, total := 0, 0
	ansW := 0
	for _, v := range votes {
		top = max(top, v.Count)
		total += v.Count
		ansW = max(ansW, text.Width(oneLineAnswer(v.Answer)))
	}
	ansW = min(ansW, max(4, b.w/3))
	countW := len(strconv.Itoa(top))
	barW := min(24, b.w-2-ansW-1-1-countW-2-9)
	for i, v := range votes {
		if i == maxVoteRows {
			rest := 0
			for _, r := range votes[i:] {
				rest += r.Count
			}
			b.para("  … "+text.Plural(len(votes)-i, "more answer")+", "+text.Plural(rest, "vote"), b.st.Detail.Subtle, 0)
			break
		}
		st := model.StatusFail
		if v.Correct {
			st = model.StatusPass
		}
		line := "  " + render(b.st.Detail.Value, text.Pad(text.TruncateMiddle(oneLineAnswer(v.Answer), ansW), ansW)) + " "
		if barW >= 3 {
			full := int(math.Round(float64(v.Count) / float64(max(1, top)) * float64(barW)))
			full = max(full, 1)
			line += render(b.st.Detail.BarFull, strings.Repeat("█", full)) + strings.Repeat(" ", barW-full) + " "
		}
		line += render(b.st.Detail.Subheading, text.PadLeft(strconv.Itoa(v.Count), countW)) + " " + render(b.st.Outcome(st), Glyph(st))
		if v.Chosen {
			line += render(b.st.Detail.Selected, " ◂ chosen")
		}
		b.add(line)
	}
}
