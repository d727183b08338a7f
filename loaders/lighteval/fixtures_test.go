package lighteval

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// The fixtures in testdata/lighteval are written here with parquet-go, in
// the three schemas lighteval's EvaluationTracker.save has written (column
// names sorted, "id" dropped): the struct columns of Detail(doc,
// model_response, metric) since June 2025, the flat typed columns of the
// older Detail, and the same flat columns as Python text before February
// 2025. Optional fields are pointers: parquet-go writes a zero value of an
// optional field as null, and a 0.0 metric must stay 0.0.

var update = flag.Bool("update", false, "rewrite the generated fixtures and the golden files")

var fixtureDir = filepath.Join("..", "..", "testdata", "lighteval")

func p[T any](v T) *T { return &v }

type docCol struct {
	Query       *string  `parquet:"query,optional"`
	Choices     []string `parquet:"choices,optional,list"`
	GoldIndex   *int64   `parquet:"gold_index,optional"`
	Instruction *string  `parquet:"instruction,optional"`
	ID          *string  `parquet:"id,optional"`
	TaskName    *string  `parquet:"task_name,optional"`
	NumSamples  *int64   `parquet:"num_samples,optional"`
}

type responseCol struct {
	Input             *string   `parquet:"input,optional"`
	Text              []string  `parquet:"text,optional,list"`
	TextPostProcessed []string  `parquet:"text_post_processed,optional,list"`
	Reasonings        []string  `parquet:"reasonings,optional,list"`
	Logprobs          []float64 `parquet:"logprobs,optional,list"`
	InputTokens       []int64   `parquet:"input_tokens,optional,list"`
}

type genMetric struct {
	EM  *float64 `parquet:"em,optional"`
	Maj *float64 `parquet:"maj@4,optional"`
}

type genRow struct {
	Doc           *docCol      `parquet:"doc,optional"`
	Metric        *genMetric   `parquet:"metric,optional"`
	ModelResponse *responseCol `parquet:"model_response,optional"`
}

type mcMetric struct {
	Acc     *float64 `parquet:"acc,optional"`
	AccNorm *float64 `parquet:"acc_norm,optional"`
}

type mcRow struct {
	Doc           *docCol      `parquet:"doc,optional"`
	Metric        *mcMetric    `parquet:"metric,optional"`
	ModelResponse *responseCol `parquet:"model_response,optional"`
}

type flatMetrics struct {
	Acc *float64 `parquet:"acc,optional"`
}

type flatRow struct {
	Choices     []string     `parquet:"choices,optional,list"`
	Example     *string      `parquet:"example,optional"`
	FullPrompt  *string      `parquet:"full_prompt,optional"`
	Gold        []string     `parquet:"gold,optional,list"`
	GoldIndex   []int64      `parquet:"gold_index,optional,list"`
	Metrics     *flatMetrics `parquet:"metrics,optional"`
	Predictions []string     `parquet:"predictions,optional,list"`
}

type strRow struct {
	Choices     string `parquet:"choices"`
	Example     string `parquet:"example"`
	FullPrompt  string `parquet:"full_prompt"`
	Gold        string `parquet:"gold"`
	GoldIndex   string `parquet:"gold_index"`
	Metrics     string `parquet:"metrics"`
	Predictions string `parquet:"predictions"`
}

func write[T any](rows []T) []byte {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b, parquet.CreatedBy("evalview fixtures", "1", "0"))
	if _, err := w.Write(rows); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

const date = "2025-07-05T09-59-00.123456"

func fixtures() map[string][]byte {
	gen := []genRow{
		{Doc: &docCol{Query: p("Question: Natalia sold 48 clips in April and half as many in May. How many in all?\nAnswer:"), Choices: []string{"72"}, GoldIndex: p(int64(0)), ID: p("0"), TaskName: p("gsm8k|5"), NumSamples: p(int64(1))},
			Metric:        &genMetric{EM: p(1.0), Maj: p(1.0)},
			ModelResponse: &responseCol{Input: p("Question: Natalia sold 48 clips...\nAnswer:"), Text: []string{"<think>48/2=24</think> She sold 48+24 = 72 clips. #### 72"}, TextPostProcessed: []string{"She sold 48+24 = 72 clips. #### 72"}, Reasonings: []string{"48/2=24"}, InputTokens: []int64{1, 2, 3}}},
		{Doc: &docCol{Query: p("Question: Weng earns $12 an hour. She did 50 minutes of babysitting. How much did she earn?\nAnswer:"), Choices: []string{"10"}, GoldIndex: p(int64(0)), ID: p("1"), TaskName: p("gsm8k|5"), NumSamples: p(int64(1))},
			Metric:        &genMetric{EM: p(0.0), Maj: p(0.0)},
			ModelResponse: &responseCol{Text: []string{"She earned $600. #### 600"}}},
		{Doc: &docCol{Query: p("Question: A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts?\nAnswer:"), Choices: []string{"3"}, GoldIndex: p(int64(0)), ID: p("2"), TaskName: p("gsm8k|5"), NumSamples: p(int64(1))},
			Metric:        &genMetric{EM: p(math.NaN()), Maj: p(1.0)},
			ModelResponse: &responseCol{Text: []string{"3"}}},
	}
	mc := []mcRow{
		{Doc: &docCol{Query: p("Question: Which gas do plants absorb?\nAnswer:"), Choices: []string{" oxygen", " carbon dioxide", " helium"}, GoldIndex: p(int64(1)), Instruction: p("The following are science questions."), ID: p("0")},
			Metric:        &mcMetric{Acc: p(1.0), AccNorm: p(1.0)},
			ModelResponse: &responseCol{Logprobs: []float64{-4.5, -0.7, -9.1}}},
		{Doc: &docCol{Query: p("Question: What is H2O?\nAnswer:"), Choices: []string{" salt", " water", " sand"}, GoldIndex: p(int64(1)), ID: p("1")},
			Metric:        &mcMetric{Acc: p(0.0), AccNorm: p(1.0)},
			ModelResponse: &responseCol{Logprobs: []float64{-0.2, -1.9, -6.0}}},
	}
	flat := []flatRow{
		{Choices: []string{" A", " B"}, Example: p("Is the sky blue?"), FullPrompt: p("Q: Is the sky blue?\nA:"), Gold: []string{" A"}, GoldIndex: []int64{0}, Metrics: &flatMetrics{Acc: p(1.0)}, Predictions: []string{"[-0.1, True]", "[-2.3, False]"}},
		{Choices: []string{" A", " B"}, Example: p("Is fire cold?"), FullPrompt: p("Q: Is fire cold?\nA:"), Gold: []string{" B"}, GoldIndex: []int64{1}, Metrics: &flatMetrics{Acc: p(0.0)}, Predictions: []string{"[-0.3, True]", "[-1.2, False]"}},
	}
	str := []strRow{
		{Choices: "[' yes', ' no']", Example: "Is water wet?", FullPrompt: "Q: Is water wet?\nA:", Gold: "[' yes']", GoldIndex: "[0]", Metrics: "{'acc': 1.0}", Predictions: "[(-0.05, True), (-3.2, False)]"},
		{Choices: "[' yes', ' no']", Example: "Can pigs fly? It's \"unlikely\"", FullPrompt: "Q: Can pigs fly?\nA:", Gold: "[' no']", GoldIndex: "[1]", Metrics: "{'acc': 0.0}", Predictions: "[(-0.5, True), (-1.1, False)]"},
	}
	// A chat model's run of an instruct task (lighteval's gpqa:diamond
	// prompt): every query opens with the same instruction line; row 0's
	// prompt is the chat messages as JSON text, one example as turns
	// before the question; row 1's is one text, two examples before the
	// question.
	instr := "Answer the following multiple choice question. The last line of your response should be of the following format: 'Answer: $LETTER' (without quotes) where LETTER is one of ABCD. Think step by step before answering.\n\n"
	q0 := instr + "Which planet is largest?\n\nA) Mars\nB) Jupiter\nC) Venus\nD) Mercury"
	q1 := instr + "Which metal is liquid at room temperature?\n\nA) Iron\nB) Gold\nC) Mercury\nD) Tin"
	ex := instr + "Which gas do plants absorb?\n\nA) Oxygen\nB) Carbon dioxide\nC) Helium\nD) Neon"
	msgs, _ := json.Marshal([]map[string]string{{"role": "system", "content": "You are a careful scientist."}, {"role": "user", "content": ex}, {"role": "assistant", "content": "Plants take in CO2.\nAnswer: B"}, {"role": "user", "content": q0}})
	chat := []genRow{
		{Doc: &docCol{Query: p(q0), Choices: []string{"A", "B", "C", "D"}, GoldIndex: p(int64(1)), ID: p("0")},
			Metric:        &genMetric{EM: p(1.0)},
			ModelResponse: &responseCol{Input: p(string(msgs)), Text: []string{"Jupiter is the largest.\nAnswer: B"}}},
		{Doc: &docCol{Query: p(q1), Choices: []string{"A", "B", "C", "D"}, GoldIndex: p(int64(2)), ID: p("1")},
			Metric:        &genMetric{EM: p(0.0)},
			ModelResponse: &responseCol{Input: p(ex + "\nAnswer: B\n\n" + instr + "Which planet is red?\n\nA) Mars\nB) Venus\nC) Earth\nD) Jupiter\nAnswer: A\n\n" + q1), Text: []string{"Answer: A"}}},
	}
	results := map[string]any{
		"config_general": map[string]any{"lighteval_sha": "abc123", "model_name": "acme/tiny-1b", "start_time": 1751709540.0, "end_time": 1751709600.0},
		"results": map[string]any{
			"gsm8k|5":         map[string]any{"em": 0.5, "em_stderr": 0.5, "maj@4": 0.6666666666666666, "maj@4_stderr": 0.3333333333333333},
			"arc:challenge|0": map[string]any{"acc": 0.5, "acc_stderr": 0.5, "acc_norm": 0.9, "acc_norm_stderr": 0.1},
			"all":             map[string]any{"acc": 0.5},
		},
		"versions": map[string]any{}, "config_tasks": map[string]any{}, "summary_tasks": map[string]any{}, "summary_general": map[string]any{},
	}
	rj, _ := json.MarshalIndent(results, "", "  ")
	// The demo (evalview --demo) embeds the same run; go:embed refuses
	// ":" and "|" in file names, so its task names spell them "-" and "_".
	demo := "../demo/lighteval/"
	return map[string][]byte{
		demo + "details/acme/tiny-1b/" + date + "/details_gsm8k_5_" + date + ".parquet":         write(gen),
		demo + "details/acme/tiny-1b/" + date + "/details_arc-challenge_0_" + date + ".parquet": write(mc),
		demo + "results/acme/tiny-1b/results_" + date + ".json":                                 bytes.ReplaceAll(bytes.ReplaceAll(rj, []byte("gsm8k|5"), []byte("gsm8k_5")), []byte("arc:challenge|0"), []byte("arc-challenge_0")),
		"output/details/acme/tiny-1b/" + date + "/details_gsm8k|5_" + date + ".parquet":         write(gen),
		"output/details/acme/tiny-1b/" + date + "/details_arc:challenge|0_" + date + ".parquet": write(mc),
		"output/results/acme/tiny-1b/results_" + date + ".json":                                 rj,
		"flat/details_leaderboard|boolq|0_2025-03-01T10-00-00.000000.parquet":                   write(flat),
		"chat/details_lighteval|gpqa:diamond|0_" + date + ".parquet":                            write(chat),
		"flat_str/details_lighteval|boolq|0_2024-11-01T10-00-00.000000.parquet":                 write(str),
	}
}

// storedName is how a fixture is named in the repository: lighteval's
// own names hold "|" and ":" (details_gsm8k|5_{date}.parquet), which
// Windows refuses, so that a checkout there fails whole; they are stored
// percent-encoded ("%7C", "%3A") and realFixtures gives them their real
// names back.
func storedName(name string) string {
	return strings.NewReplacer("%", "%25", "|", "%7C", ":", "%3A").Replace(name)
}

// realFixtures copies testdata/lighteval to a temporary folder under the
// names lighteval writes, and returns it. Where the system refuses those
// names (Windows), the test is skipped.
func realFixtures(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip(`lighteval's file names hold "|" and ":", which Windows refuses`)
	}
	dir := t.TempDir()
	err := filepath.WalkDir(fixtureDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(fixtureDir, path)
		if err != nil {
			return err
		}
		real, err := url.PathUnescape(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(real))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFixtureNamesPortable: every file under testdata/lighteval has a
// name Windows and Go module zips accept.
func TestFixtureNamesPortable(t *testing.T) {
	err := filepath.WalkDir(fixtureDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.ContainsAny(d.Name(), `<>:"|?*\`) {
			t.Errorf("%s: a name Windows refuses", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFixtures(t *testing.T) {
	for name, data := range fixtures() {
		path := filepath.Join(fixtureDir, filepath.FromSlash(storedName(name)))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run go test -run TestFixtures -update)", name, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s differs from what the generator writes (run go test -run TestFixtures -update)", name)
		}
	}
}
