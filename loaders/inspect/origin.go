package inspect

import (
	"strconv"

	"evalview/loaders/internal/runcfg"
	"evalview/model"
)

// runKnobs are settings of an Inspect run that change how it reached the
// model but not what it evaluated (GenerateConfig's retries, timeouts,
// connections, caching and batching; a provider's device): two runs that
// differ only there are one configuration of the model.
var runKnobs = []string{
	"generate.max_retries", "generate.timeout", "generate.attempt_timeout", "generate.max_connections",
	"generate.adaptive_connections", "generate.cache_prompt", "generate.extra_headers", "generate.cache", "generate.batch",
	"model_args.device", "model_args.device_map", "model_args.batch_size", "model_args.trust_remote_code",
}

// originConfig is a log's model.Origin.Config: the model's arguments,
// its generate config (temperature, max_tokens, a system message, a
// reasoning effort...), the task's and the solver's arguments, and the
// limits and epochs that change which samples and how many were scored
// (inspect_ai/log/_log.py EvalSpec, EvalConfig).
func originConfig(h *logHeader) []model.Fact {
	e := &h.Eval
	s := runcfg.New(runKnobs...)
	s.AddJSON("model_args", e.ModelArgs)
	s.AddJSON("generate", e.ModelGenerateConfig)
	s.AddJSON("task_args", e.TaskArgs)
	s.AddJSON("solver_args", e.SolverArgs)
	s.AddJSON("limit", e.Config.Limit)
	if n := e.Config.Epochs; n != nil && *n > 1 {
		s.Add("epochs", strconv.Itoa(*n))
	}
	s.AddJSON("message_limit", e.Config.MessageLimit)
	s.AddJSON("token_limit", e.Config.TokenLimit)
	return s.Facts()
}
