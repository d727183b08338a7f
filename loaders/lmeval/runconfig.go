package lmeval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"evalview/loaders/internal/runcfg"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// runKnobs are model_args that change how the harness ran a model but
// not what it evaluated (lm_eval/models: huggingface.py, vllm_causallms.py,
// api_models.py): runs that differ only here are one configuration.
// Anything not named here (revision, peft, delta, steer_path, dtype,
// max_length, add_bos_token, a quantization...) tells configurations
// apart, so that an argument evalview does not know splits two runs
// rather than hiding one behind the other.
var runKnobs = []string{
	"batch_size", "max_batch_size", "device", "device_map", "parallelize", "tensor_parallel_size",
	"data_parallel_size", "pipeline_parallel_size", "gpu_memory_utilization", "trust_remote_code",
	"swap_space", "enforce_eager", "max_num_seqs", "num_concurrent", "max_retries", "timeout",
	"tokenized_requests", "cache_dir", "offload_folder", "max_memory_per_gpu", "max_cpu_memory",
	"low_cpu_mem_usage", "enable_prefix_caching", "distributed_executor_backend", "cpu_offload_gb",
	"use_accelerate", "attn_implementation", "seed", "base_url", "verify_certificate", "logits_cache",
	"use_fast_tokenizer", "disable_custom_all_reduce", "num_gpus", "multi_gpu",
}

// modelKeys are the model_args that name the model (the tracker's
// _get_model_name prefixes): the one that names the run's model is its
// Origin.Model, not a setting.
var modelKeys = []string{"peft", "delta", "pretrained", "model", "path", "engine", "model_name"}

// runConfig is a results file's model.Origin.Config: model_args besides
// the model's own name and runKnobs, num_fewshot when the run set it for
// every task (config.num_fewshot, before v0.4), gen_kwargs, the limit,
// the chat template and system instruction (by their hashes, as the
// file gives them), and fewshot_as_multiturn.
func runConfig(raw rawResults, modelName string) []model.Fact {
	var cfg map[string]json.RawMessage
	_ = json.Unmarshal(raw.Config, &cfg)
	s := runcfg.New(runKnobs...)
	if a, ok := cfg["model_args"]; ok {
		if t := strings.TrimSpace(string(a)); strings.HasPrefix(t, "{") {
			s.AddJSON("", a)
		} else {
			s.AddArgs("", jsonl.Text(a))
		}
	}
	var facts []model.Fact
	for _, f := range s.Facts() {
		if f.Value == modelName && contains(modelKeys, f.Key) {
			continue
		}
		f.Value = argValue(f.Value)
		facts = append(facts, f)
	}
	s = runcfg.New()
	for _, f := range facts {
		s.Add(f.Key, f.Value)
	}
	s.AddJSON("num_fewshot", cfg["num_fewshot"])
	if g, ok := cfg["gen_kwargs"]; ok {
		if t := strings.TrimSpace(string(g)); strings.HasPrefix(t, "{") {
			s.AddJSON("gen_kwargs", g)
		} else if t != "null" {
			s.AddArgs("gen_kwargs", jsonl.Text(g))
		}
	}
	s.AddJSON("limit", cfg["limit"])
	if raw.ChatTemplate != nil && *raw.ChatTemplate != "" {
		s.Add("chat_template", hashOr(raw.ChatTemplateSHA, *raw.ChatTemplate))
	}
	if raw.SystemInstruct != nil && *raw.SystemInstruct != "" {
		s.Add("system_instruction", hashOr(raw.SystemInstructSHA, *raw.SystemInstruct))
	}
	if raw.FewshotAsMultiturn != nil && *raw.FewshotAsMultiturn {
		s.Add("fewshot_as_multiturn", "true")
	}
	return s.Facts()
}

// argValue writes a model argument as the harness reads it
// (utils.handle_arg_string): "true" in any case is True, "false" False,
// a number the number ("3.0" and "3.00" are one float), so that two runs
// that spelled one argument two ways are one configuration.
func argValue(v string) string {
	switch strings.ToLower(v) {
	case "true":
		return "True"
	case "false":
		return "False"
	}
	if i, err := strconv.ParseInt(v, 10, 64); err == nil {
		return strconv.FormatInt(i, 10)
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !strings.ContainsAny(v, "xXnN_") {
		return pyFloat(f)
	}
	return v
}

// pyFloat writes f as Python's repr does for the values arguments take
// (3.0, 0.5, 1e-05).
func pyFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// hashOr is the writer's hash of text, else its sha256 as the harness
// computes it (utils.hash_string).
func hashOr(sha, text string) string {
	if sha != "" {
		return sha
	}
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// taskConfig is a task's own settings in the run: its n-shot, which
// the harness writes per task (n-shot) since v0.4.
func (r *results) taskConfig(task string) []model.Fact {
	if n := r.NShot[task]; n != "" && n != "null" {
		return []model.Fact{{Key: "num_fewshot", Value: n}}
	}
	return nil
}
