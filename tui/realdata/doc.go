// Package realdata holds only tests: they open the real artifacts of
// ../shared/data with the loaders and walk every dataset, record and tab of
// the browser at several terminal sizes, through the browser's exported
// API only. They live apart from package tui because they are slow and
// skip without ../shared; package tui's own tests use in-memory datasets,
// except the few that load the project's fixtures (goldens per format,
// follow, trace, hostile input), which import the loaders in test code
// only: the browser itself never does (go list -deps ./tui).
package realdata
