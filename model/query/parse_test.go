package query

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	cases := []struct {
		in, want string
		terms    int
	}{
		{"", "", 0},
		{"   ", "", 0},
		{"score<5", "score<5", 1},
		{"score<=5 score>1  score>=1.5", "score<=5 score>1 score>=1.5", 3},
		{"score=-0.5", "score=-0.5", 1},
		{"category=math", "category=math", 1},
		{"category:math", "category=math", 1},
		{"category!=math", "category!=math", 1},
		{`category="high school"`, `category="high school"`, 1},
		{`category=high" school"`, `category="high school"`, 1},
		{`"category"=math`, "category=math", 1},
		{`"data_tag.doc type"=x`, `"data_tag.doc type"=x`, 1},
		{"title~^Sol", "title~^Sol", 1},
		{`title~^\d+$`, `title~^\d+$`, 1},
		{`title~"a b"`, `title~"a b"`, 1},
		{"tag:critical", "tag:critical", 1},
		{"tag=critical", "tag:critical", 1},
		{"tag!=critical", "tag!=critical", 1},
		{"label:wrong-format", "label:wrong-format", 1},
		{"-status=fail", "-status=fail", 1},
		{"not status=fail", "-status=fail", 1},
		{"not -x", "x", 1},
		{"--x", "x", 1},
		{"not not x", "x", 1},
		{"status=FAIL", "status=fail", 1},
		{"answer=[invalid]", `answer="[invalid]"`, 1},
		{`answer="[invalid]"`, `answer="[invalid]"`, 1},
		{"filter=maj@64", "filter=maj@64", 1},
		{"filter:maj@64", "filter=maj@64", 1},
		{"Hello world", "Hello world", 2},
		{`"hello world"`, `"hello world"`, 1},
		{`"a=b"`, `"a=b"`, 1},
		{`"not"`, `"not"`, 1},
		{`-"not"`, `-"not"`, 1},
		{"-not", `-"not"`, 1},
		{`"-x"`, `"-x"`, 1},
		{`""`, `""`, 1},
		{"a!b", "a!b", 1},
		{"ta!:0", `"ta!"=0`, 1},
		{"labels.status=completed", "labels.status=completed", 1},
		{"data_tag.doc_type=report", "data_tag.doc_type=report", 1},
		{`note=""`, `note=""`, 1},
		{`score=""`, `score=""`, 1},
		{`x="say \"hi\""`, `x="say \"hi\""`, 1},
		{`x="back\\"`, `x="back\\"`, 1},
		{"category==x", `category="=x"`, 1},
		{"version<v10", "version<v10", 1},
		{"score<5 category=math status=fail filter=maj@64 tag:critical", "score<5 category=math status=fail filter=maj@64 tag:critical", 5},
	}
	for _, c := range cases {
		q, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := q.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if len(q.terms) != c.terms {
			t.Errorf("Parse(%q): %d terms, want %d", c.in, len(q.terms), c.terms)
		}
		if q2 := mustParse(t, q.String()); q2.String() != q.String() {
			t.Errorf("Parse(%q): canonical form %q re-parses as %q", c.in, q.String(), q2.String())
		}
	}
}

func TestParseTerms(t *testing.T) {
	cases := []struct {
		in    string
		kind  fieldKind
		key   string
		op    op
		value string
		neg   bool
	}{
		{"score<5", fScore, "", opLt, "5", false},
		{"-tag:a b", fTag, "", opEq, "a", true}, // "b" is a second term
		{`category="high school"`, fLabel, "category", opEq, "high school", false},
		{"labels.status=done", fLabel, "status", opEq, "done", false},
		{"status=done", fLabel, "", 0, "", false}, // checked below as an error
		{"Solve", fBare, "", opNone, "Solve", false},
		{"solve", fBare, "", opNone, "solve", false},
		{"not title~x", fTitle, "", opRe, "x", true},
		{"filter=flexible-extract", fFilter, "", opEq, "flexible-extract", false},
		{"note~timeout", fNote, "", opRe, "timeout", false},
		{"agreement=mixed", fAgreement, "", opEq, "mixed", false},
		{"issues>=2", fIssues, "", opGe, "2", false},
	}
	for _, c := range cases {
		q, err := Parse(c.in)
		if c.in == "status=done" {
			if err == nil {
				t.Errorf("Parse(%q): no error for an unknown status", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		tm := q.terms[0]
		if tm.field.kind != c.kind || tm.field.key != c.key || tm.op != c.op || tm.value != c.value || tm.neg != c.neg {
			t.Errorf("Parse(%q) = kind %d key %q op %q value %q neg %v", c.in, tm.field.kind, tm.field.key, tm.op, tm.value, tm.neg)
		}
	}
	if q := mustParse(t, "filter=strict-match status=fail"); q.FilterName() != "strict-match" {
		t.Errorf("FilterName = %q", q.FilterName())
	}
	if q := mustParse(t, "-filter=strict-match filter~x"); q.FilterName() != "" {
		t.Errorf("negated filter selected %q", q.FilterName())
	}
	if q := mustParse(t, "solve"); !q.terms[0].fold {
		t.Error("lower-case bare word is not smart-case folded")
	}
	if q := mustParse(t, "Solve"); q.terms[0].fold {
		t.Error("bare word with an upper-case letter is folded")
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		code string
		col  int
		term string
	}{
		{"score<<5", "bad-number", 1, "score<<5"},
		{"a=b score<<5", "bad-number", 5, "score<<5"},
		{"héllo score<x", "bad-number", 7, "score<x"},
		{`"abc`, "unterminated-quote", 1, `"abc`},
		{`x title="abc`, "unterminated-quote", 3, `title="abc`},
		{"=5", "missing-field", 1, "=5"},
		{`""=5`, "missing-field", 1, `""=5`},
		{"labels.=x", "missing-field", 1, "labels.=x"},
		{"score<", "missing-value", 1, "score<"},
		{"category=", "missing-value", 1, "category="},
		{`title<""`, "missing-value", 1, `title<""`},
		{"-", "missing-term", 1, "-"},
		{"x --", "missing-term", 3, "--"},
		{"x not", "missing-term", 3, "not"},
		{"tag<3", "bad-operator", 1, "tag<3"},
		{"status>pass", "bad-operator", 1, "status>pass"},
		{"score~1", "bad-operator", 1, "score~1"},
		{"filter>=x", "bad-operator", 1, "filter>=x"},
		{"status=foo", "bad-status", 1, "status=foo"},
		{`status=""`, "bad-status", 1, `status=""`},
		{"title~(", "bad-regex", 1, "title~("},
		{"errors=many", "bad-number", 1, "errors=many"},
		{"filter=a filter=b", "conflicting-filter", 10, "filter=b"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error %v, want code %s", c.in, err, c.code)
			continue
		}
		if e.Code != c.code || e.Col != c.col || e.Term != c.term {
			t.Errorf("Parse(%q): code %s col %d term %q, want %s %d %q (%v)", c.in, e.Code, e.Col, e.Term, c.code, c.col, c.term, err)
		}
	}
	_, err := Parse("x=1 y score<<5")
	if want := `bad term "score<<5" at column 7: score needs a number, got "<5"`; err == nil || err.Error() != want {
		t.Errorf("error text %v, want %s", err, want)
	}
	// The same filter twice is no conflict.
	mustParse(t, "filter=a filter=a")
}

func TestTermForRoundTrip(t *testing.T) {
	values := []string{"math", "high school", `say "hi"`, "a=b", "k:v", "", `back\slash`, `trailing\`, `\"`, `\\`,
		"-neg", "not", "[invalid]", "tab\there", "日本語", "x y=z", "(none)", " lead", "maj@64", "1.5", "\xff"}
	fields := []string{"category", "tag", "bang!", "label", "answer", "note", "labels.status", "data_tag.my key", `we"ird`, "-dash", "not", "id"}
	for _, f := range fields {
		for _, v := range values {
			term := TermFor(f, v)
			q, err := Parse(term)
			if err != nil {
				t.Errorf("TermFor(%q, %q) = %s: %v", f, v, term, err)
				continue
			}
			if len(q.terms) != 1 {
				t.Errorf("TermFor(%q, %q) = %s: %d terms", f, v, term, len(q.terms))
				continue
			}
			tm := q.terms[0]
			if tm.field.name() != resolveField(f).name() || tm.value != v || tm.op != opEq || tm.neg {
				t.Errorf("TermFor(%q, %q) = %s parses as field %q op %q value %q", f, v, term, tm.field.name(), tm.op, tm.value)
			}
		}
	}
	want := map[[2]string]string{
		{"category", "high school"}: `category="high school"`,
		{"tag", "critical"}:         "tag:critical",
		{"answer", "[invalid]"}:     `answer="[invalid]"`,
		{"filter", "maj@64"}:        "filter=maj@64",
		{"status", "Fail"}:          "status=fail",
		{"category", ""}:            `category=""`,
		{"score", "0.5"}:            "score=0.5",
	}
	for k, w := range want {
		if got := TermFor(k[0], k[1]); got != w {
			t.Errorf("TermFor(%q, %q) = %s, want %s", k[0], k[1], got, w)
		}
	}
}

func TestLabelField(t *testing.T) {
	for key, want := range map[string]string{"category": "category", "status": "labels.status", "id": "labels.id",
		"labels.x": "labels.labels.x", "data_tag.a": "data_tag.a"} {
		if got := LabelField(key); got != want {
			t.Errorf("LabelField(%q) = %q, want %q", key, got, want)
		}
		if f := resolveField(LabelField(key)); f.kind != fLabel || f.key != key {
			t.Errorf("LabelField(%q) resolves to %+v", key, f)
		}
	}
	if !strings.Contains(LabelField("status"), ".") {
		t.Error("shadowed label not prefixed")
	}
}
