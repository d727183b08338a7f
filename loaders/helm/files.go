package helm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
)

// runSpec is what this package reads of run_spec.json (RunSpec,
// benchmark/run_spec.py).
type runSpec struct {
	Name         string `json:"name"`
	ScenarioSpec struct {
		ClassName string                     `json:"class_name"`
		Args      map[string]json.RawMessage `json:"args"`
	} `json:"scenario_spec"`
	AdapterSpec adapterSpec `json:"adapter_spec"`
	MetricSpecs []struct {
		ClassName string `json:"class_name"`
	} `json:"metric_specs"`
	DataAugmenterSpec struct {
		PerturbationSpecs []struct {
			ClassName string `json:"class_name"`
		} `json:"perturbation_specs"`
	} `json:"data_augmenter_spec"`
	Groups     []string `json:"groups"`
	Annotators []struct {
		ClassName string `json:"class_name"`
	} `json:"annotators"`
}

// adapterSpec is AdapterSpec (adaptation/adapter_spec.py), the fields
// shown.
type adapterSpec struct {
	Method            string   `json:"method"`
	Model             string   `json:"model"`
	ModelDeployment   string   `json:"model_deployment"`
	MaxTrainInstances *int     `json:"max_train_instances"`
	MaxEvalInstances  *int     `json:"max_eval_instances"`
	NumOutputs        *int     `json:"num_outputs"`
	NumTrainTrials    *int     `json:"num_train_trials"`
	Temperature       *float64 `json:"temperature"`
	MaxTokens         *int     `json:"max_tokens"`
	EvalSplits        []string `json:"eval_splits"`
}

// scenarioInfo is scenario.json (Scenario's fields).
type scenarioInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

// instance is Instance (scenarios/scenario.py).
type instance struct {
	ID       string `json:"id"`
	Split    string `json:"split"`
	SubSplit string `json:"sub_split"`
	Input    struct {
		Text              string        `json:"text"`
		MultimediaContent *multimedia   `json:"multimedia_content"`
		Messages          []chatMessage `json:"messages"`
	} `json:"input"`
	References   []reference                `json:"references"`
	Perturbation json.RawMessage            `json:"perturbation"`
	ExtraData    map[string]json.RawMessage `json:"extra_data"`
}

type reference struct {
	Output struct {
		Text              string      `json:"text"`
		MultimediaContent *multimedia `json:"multimedia_content"`
	} `json:"output"`
	Tags []string `json:"tags"`
}

func (r reference) correct() bool {
	for _, t := range r.Tags {
		if t == "correct" {
			return true
		}
	}
	return false
}

// multimedia is MultimediaObject: media objects in order.
type multimedia struct {
	MediaObjects []struct {
		ContentType string `json:"content_type"`
		Text        string `json:"text"`
		Location    string `json:"location"`
	} `json:"media_objects"`
}

// chatMessage is a message of Request.messages: a role and a content
// (text, or a list of parts).
type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// request is Request (common/request.py), the fields shown.
type request struct {
	Model            string          `json:"model"`
	ModelDeployment  string          `json:"model_deployment"`
	Prompt           string          `json:"prompt"`
	Messages         []chatMessage   `json:"messages"`
	MultimodalPrompt *multimedia     `json:"multimodal_prompt"`
	Temperature      *float64        `json:"temperature"`
	NumCompletions   *int            `json:"num_completions"`
	TopKPerToken     *int            `json:"top_k_per_token"`
	MaxTokens        *int            `json:"max_tokens"`
	StopSequences    json.RawMessage `json:"stop_sequences"`
	EchoPrompt       bool            `json:"echo_prompt"`
}

// completion is GeneratedOutput; its tokens are not read.
type completion struct {
	Text         string          `json:"text"`
	Logprob      *float64        `json:"logprob"`
	FinishReason json.RawMessage `json:"finish_reason"`
	Thinking     *struct {
		Text string `json:"text"`
	} `json:"thinking"`
	MultimodalContent *multimedia `json:"multimodal_content"`
}

// result is RequestResult.
type result struct {
	Success     bool         `json:"success"`
	Error       string       `json:"error"`
	Completions []completion `json:"completions"`
	Cached      bool         `json:"cached"`
	RequestTime *float64     `json:"request_time"`
}

// requestState is RequestState (adaptation/request_state.py), with where
// it is in scenario_state.json.
type requestState struct {
	Instance          instance                   `json:"instance"`
	ReferenceIndex    *int                       `json:"reference_index"`
	RequestMode       string                     `json:"request_mode"`
	Trial             int                        `json:"train_trial_index"`
	OutputMapping     map[string]string          `json:"output_mapping"`
	Request           request                    `json:"request"`
	Result            *result                    `json:"result"`
	NumTrainInstances *int                       `json:"num_train_instances"`
	PromptTruncated   bool                       `json:"prompt_truncated"`
	Annotations       map[string]json.RawMessage `json:"annotations"`

	// Where the request state is: its byte range in the file it came
	// from, and its 1-based line; a display file's entries have none.
	file       string
	start, end int64
	line       int
	// mapped and stats are a display prediction's mapped output and stats
	// (read without scenario_state.json).
	mapped  *string
	display map[string]float64
}

// The sizes HELM's files are read whole to (variables, so that tests can
// lower them): a run's files (its instances, display predictions and
// per-instance stats: every instance of the run) to 512 MB, a suite's
// schema.json to 32 MB. scenario_state.json is streamed, one request
// state at a time.
var (
	maxRunFile = int64(512 << 20)
	maxSchema  = int64(32 << 20)
)

// readJSON decodes a whole file: Python's NaN and Infinity are read as
// numbers. A file that is not a regular file, or past maxRunFile, is
// refused unread (jsonl.Refused).
func readJSON(p string, v any) error {
	data, err := jsonl.ReadRegular(p, maxRunFile)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(nonfinite.Sanitize(data), v); err != nil {
		return fmt.Errorf("not the JSON HELM writes: %w", err)
	}
	return nil
}

// errNoFile tells that a run file is absent.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// readScenarioState streams scenario_state.json's request_states, keeping
// each one's byte range; the adapter spec beside them is not read again
// (run_spec.json has it).
func readScenarioState(p string) ([]*requestState, error) {
	f, err := jsonl.OpenRegular(p)
	if err != nil {
		return nil, jsonl.Bare(err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 256<<10))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not the JSON HELM writes: scenario_state.json is not an object")
	}
	var out []*requestState
	found := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out, fmt.Errorf("not the JSON HELM writes: %w", err)
		}
		k, _ := t.(string)
		if k != "request_states" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return out, fmt.Errorf("not the JSON HELM writes: %s: %w", k, err)
			}
			continue
		}
		found = true
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return out, errors.New("not the JSON HELM writes: request_states is not a list")
		}
		for dec.More() {
			start := dec.InputOffset()
			rs := &requestState{}
			if err := dec.Decode(rs); err != nil {
				return out, fmt.Errorf("request_states[%d]: not the JSON HELM writes: %w", len(out), err)
			}
			rs.file, rs.start, rs.end = p, start, dec.InputOffset()
			out = append(out, rs)
		}
		if _, err := dec.Token(); err != nil {
			return out, fmt.Errorf("not the JSON HELM writes: %w", err)
		}
	}
	if !found {
		return nil, errors.New("scenario_state.json has no request_states")
	}
	setLines(p, out)
	return out, nil
}

// setLines gives each request state the line its range starts on (after
// the comma and spaces before it), reading the file once more.
func setLines(p string, rss []*requestState) {
	f, err := jsonl.OpenRegular(p)
	if err != nil {
		return
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	var off int64
	line := 1
	i := 0
	seeking := false // past a range's start, before its first byte of JSON
	for i < len(rss) {
		b, err := r.ReadByte()
		if err != nil {
			return
		}
		if off == rss[i].start {
			seeking = true
		}
		if seeking && b != ',' && b != ' ' && b != '\n' && b != '\r' && b != '\t' {
			rss[i].line = line
			seeking = false
			i++
			// A range may start where the previous ends: look again.
			for i < len(rss) && rss[i].start < off {
				i++
			}
		}
		if b == '\n' {
			line++
		}
		off++
	}
}

// rawOf reads a request state's JSON from its file.
func rawOf(rs *requestState) ([]byte, error) {
	if rs.file == "" || rs.end <= rs.start {
		return nil, nil
	}
	f, err := jsonl.OpenRegular(rs.file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, rs.end-rs.start)
	if _, err := f.ReadAt(buf, rs.start); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return bytes.TrimLeft(buf, ", \t\r\n"), nil
}

// displayPrediction is DisplayPrediction (presentation/run_display.py).
type displayPrediction struct {
	InstanceID     string                     `json:"instance_id"`
	Perturbation   json.RawMessage            `json:"perturbation"`
	Trial          int                        `json:"train_trial_index"`
	PredictedText  string                     `json:"predicted_text"`
	MappedOutput   *string                    `json:"mapped_output"`
	ReferenceIndex *int                       `json:"reference_index"`
	Stats          map[string]float64         `json:"stats"`
	Annotations    map[string]json.RawMessage `json:"annotations"`
	ThinkingText   *string                    `json:"thinking_text"`
}

// displayRequest is DisplayRequest.
type displayRequest struct {
	InstanceID   string          `json:"instance_id"`
	Perturbation json.RawMessage `json:"perturbation"`
	Trial        int             `json:"train_trial_index"`
	Request      request         `json:"request"`
}

// fromDisplay rebuilds request states from helm-summarize's display files
// when scenario_state.json is absent: run_display.py writes one
// prediction and one request for each request state it keeps, in the
// same order, and the instances they are about.
func fromDisplay(dir string) ([]*requestState, error) {
	var insts []instance
	var preds []displayPrediction
	var reqs []displayRequest
	if err := readJSON(source.Join(dir, instancesJSON), &insts); err != nil {
		return nil, fmt.Errorf("%s: %w", instancesJSON, err)
	}
	if err := readJSON(source.Join(dir, predictionsJSON), &preds); err != nil {
		return nil, fmt.Errorf("%s: %w", predictionsJSON, err)
	}
	if err := readJSON(source.Join(dir, requestsJSON), &reqs); err != nil && !isNotExist(err) {
		return nil, fmt.Errorf("%s: %w", requestsJSON, err)
	}
	byKey := map[[2]string]instance{}
	for _, in := range insts {
		byKey[[2]string{in.ID, canonical(in.Perturbation)}] = in
	}
	var out []*requestState
	for i, p := range preds {
		in, ok := byKey[[2]string{p.InstanceID, canonical(p.Perturbation)}]
		if !ok {
			in = instance{ID: p.InstanceID, Perturbation: p.Perturbation}
		}
		rs := &requestState{Instance: in, Trial: p.Trial, ReferenceIndex: p.ReferenceIndex,
			Annotations: p.Annotations, mapped: p.MappedOutput, display: p.Stats}
		c := completion{Text: p.PredictedText}
		if p.ThinkingText != nil {
			c.Thinking = &struct {
				Text string `json:"text"`
			}{*p.ThinkingText}
		}
		rs.Result = &result{Success: true, Completions: []completion{c}}
		if i < len(reqs) && reqs[i].InstanceID == p.InstanceID && reqs[i].Trial == p.Trial {
			rs.Request = reqs[i].Request
		}
		out = append(out, rs)
	}
	return out, nil
}
