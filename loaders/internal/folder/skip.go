package folder

import (
	"strings"

	"evalview/loaders/notes"
)

// toolFolders are the folders that certainly hold no evaluation artifact:
// version control, other tools' caches and environments, an editor's
// settings, a zip's resource forks. They are the only folders a search
// passes over. Any other folder is read, hidden or not: lm-eval names a
// model folder after the model's path with "/" replaced by "__", so an
// adapter given as ../adapters/x is a folder "..__adapters__x" that
// starts with a dot and holds the results. Keep this one list: every
// search of a folder asks SkipFolder.
var toolFolders = map[string]bool{
	".git": true, ".hg": true, ".svn": true, // version control
	"node_modules": true, "__pycache__": true, // packages, compiled Python
	".venv": true, "venv": true, "site-packages": true, ".tox": true, ".nox": true, // Python environments
	".cache": true, ".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, // caches
	".ipynb_checkpoints": true,                  // Jupyter's copies of notebooks
	".idea":              true, ".vscode": true, // editors' settings
	"__MACOSX": true, // a zip's resource forks
	".Trash":   true, ".Trashes": true,
}

// SkipFolder reports whether a folder named name is one of the tools'
// folders that hold no artifact (toolFolders).
func SkipFolder(name string) bool { return toolFolders[strings.TrimSuffix(name, "/")] }

// IsNotes reports whether a file is evalview's own notes: a notes
// sidecar, or its lock or temporary file while it is written
// (".NAME.evalview-notes.jsonl.lock"). They are never artifacts.
func IsNotes(name string) bool {
	return notes.IsFile(name) || strings.HasPrefix(name, ".") && strings.Contains(name, notes.Suffix+".")
}
