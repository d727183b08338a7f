// Command evalview is a fast terminal browser for LLM evaluation artifacts:
// lm-evaluation-harness samples and results, eval run zips, standardized
// Sample JSONL and Prompt Lab testsets. Its non-interactive commands
// (check, summary, export) serve scripts and CI.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"evalview/internal/termsafe"
	"evalview/loaders"
	"evalview/loaders/source"
	"evalview/model"
	"evalview/tui"
)

// Exit codes: a contract for scripts.
const (
	exitOK        = 0
	exitErrors    = 1 // check found errors
	exitOpenFails = 2 // a path could not be opened at all, or bad usage
)

// exitError carries an exit code up to main without printing twice.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	// Messages name paths and quote file content: a crafted file name
	// must not reach the terminal as an escape sequence.
	stderr = termsafe.Writer{W: stderr}
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	sayNotices(stderr)
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "evalview:", err)
		return exitOpenFails
	}
}

// commonFlags are the flags every command takes, before or after the
// command's name (evalview --config F check P, evalview check P --config F):
// persistent flags of the root command, read by whichever command runs.
type commonFlags struct {
	as string
	// config is the config file; "" reads the default one, if any.
	config string
	// notes is one notes file for every artifact; "" uses the config's,
	// else each artifact's sidecar.
	notes string
	// cache keeps the blocks read from remote paths on disk.
	cache bool
}

// notesPath is the notes file the flags or the config name, "" for each
// artifact's own sidecar. A config file named with --config must be
// readable; a broken default one is the browser's to report.
func (c *commonFlags) notesPath() (string, error) {
	if c.notes != "" {
		return c.notes, nil
	}
	cfg, _, err := loadConfig(c.config)
	if err != nil {
		if c.config != "" {
			return "", err
		}
		return "", nil
	}
	return expandHome(cfg.Notes), nil
}

func (c *commonFlags) options() (loaders.Options, error) {
	if c.cache {
		source.SetDiskCache(source.DefaultDiskCache())
	}
	if c.as == "" {
		return loaders.Options{}, nil
	}
	k, err := loaders.ParseKind(c.as)
	if err != nil {
		return loaders.Options{}, err
	}
	return loaders.Options{As: k}, nil
}

// addCommonFlags makes c's flags persistent flags of root, so that every
// command takes them in any position.
func addCommonFlags(root *cobra.Command, c *commonFlags) {
	pf := root.PersistentFlags()
	pf.StringVar(&c.notes, "notes", "", "file for error-analysis notes (default: <artifact>.evalview-notes.jsonl next to each artifact)")
	pf.StringVar(&c.config, "config", "", "config file (default: $XDG_CONFIG_HOME/evalview/config.json)")
	pf.BoolVar(&c.cache, "cache", false, "keep what is read of remote paths (hf://, s3://, https://) on disk, under $XDG_CACHE_HOME/evalview/blocks: the same version opens again without reading it over the network")
	addAsFlag(root, c)
}

func addAsFlag(cmd *cobra.Command, c *commonFlags) {
	cmd.PersistentFlags().StringVar(&c.as, "as", "", "force the format instead of detecting it: "+loaders.KindList(", ", " or ")+" (jsonl: any JSON Lines as plain records)")
	_ = cmd.RegisterFlagCompletionFunc("as", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		kinds := loaders.Kinds()
		out := make([]string, len(kinds))
		for i, k := range kinds {
			out[i] = string(k)
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		common = &commonFlags{}
		demo   bool
		opts   tui.Options
	)
	root := &cobra.Command{
		Use:   "evalview [flags] PATH...",
		Short: "Browse LLM evaluation artifacts in the terminal",
		Long: `evalview opens LLM evaluation artifacts in a terminal browser: what the model
was asked, what it answered (every attempt), how each answer was scored, and
where it failed and why.

It reads:
` + loaders.KindHelp("  ") + `
Formats are detected from content; --as forces one.`,
		Example: `  evalview --demo                          # built-in demo data
  evalview results/my-model/               # an lm-eval model folder
  evalview samples_gsm8k_2025-08-07T11-42-40.066002.jsonl
  evalview run.zip                         # an eval run zip
  evalview --threshold 9 run.zip           # high scores (H, v) at 9, not 8.5
  evalview --follow runs/current/          # a run still being written
  evalview check --json results/           # validation for CI
  evalview summary results/my-model/       # recomputed vs reported metrics`,
		Version: versionString(),
		// Paths are positional arguments of the root command; without this
		// cobra takes them for unknown subcommands.
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if demo {
				paths, cleanup, err := writeDemo()
				if err != nil {
					return err
				}
				defer cleanup()
				args = append(args, paths...)
			}
			if len(args) == 0 {
				return cmd.Help()
			}
			o, err := common.options()
			if err != nil {
				return usageError(stderr, err)
			}
			if opts.Threshold < 0 || opts.Threshold > 10 {
				return usageError(stderr, fmt.Errorf("--threshold %v: want a score from 0 to 10", opts.Threshold))
			}
			o.Background = true // the browser shows the list while it grows
			tui.Prewarm()       // the first frame's own set-up, beside the loading
			tuneBrowserGC(args) // the heap within the inputs' budget
			// The browser opens the paths itself, once it is on its way
			// to the screen (browserOpening).
			opening := &browserOpening{}
			var datasets []*model.Dataset
			if term.IsTerminal(os.Stdin.Fd()) {
				opts.Open = opening.open(args, o)
				opts.FilterRequired = true // an unknown --filter is a usage error
			} else {
				// No terminal to start on (a script, a test): the paths
				// are opened first, so that what is wrong with them is
				// said rather than the terminal missing.
				o.Found = func(d model.Discovery) { opts.Discovery = append(opts.Discovery, d) }
				datasets, err = openFirst(args, o)
				o.Found = nil // a reload reports nothing to the screen
				if err != nil {
					fmt.Fprintln(stderr, "evalview:", err)
					if len(datasets) == 0 {
						return exitError{exitOpenFails}
					}
				}
				if err := checkFilterName(datasets, opts.Filter); err != nil {
					return usageError(stderr, err)
				}
			}
			notesPath := common.notes
			if notesPath == "" {
				notesPath = configNotesPath(common.config)
			}
			opener := &noteOpener{path: notesPath}
			opts.Notes = opener.tuiNotes
			opts.Export = exportFile(opener)
			opts.Reopen = reopener(o)
			opts.Stat = source.Stat       // follow polls a remote object's version tag
			opts.ReadDir = source.ReadDir // and lists a remote folder
			opts.Overview = true          // several datasets open on the overview of tasks by models
			opts.State = tui.StatePath()  // the list/detail split, remembered between runs
			if err := applyConfig(cmd, &opts, common.config, stderr); err != nil {
				return usageError(stderr, err)
			}
			err = tui.Run(datasets, opts)
			opener.flush(stderr) // notes whose save found the file locked
			if err != nil {
				fmt.Fprintln(stderr, "evalview:", err)
				return exitError{exitOpenFails}
			}
			if err := opening.failed(); err != nil {
				fmt.Fprintln(stderr, "evalview:", err) // the paths that could not be opened
			}
			return nil
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.Flags().BoolVar(&demo, "demo", false, "open the demo artifacts built into the binary")
	root.Flags().StringVar(&opts.Theme, "theme", "auto", "color theme: auto, dark or light")
	root.Flags().StringVar(&opts.Filter, "filter", "", "lm-eval filter to select first (e.g. flexible-extract)")
	root.Flags().BoolVar(&opts.Follow, "follow", false, "follow a file or run folder still being written: reload as it grows, keeping the cursor (ctrl+r toggles)")
	root.Flags().Float64Var(&opts.Threshold, "threshold", 0, "run zips: the starting high-score threshold, 0 to 10 (default: the run's scores_map pass_threshold, else 8.5); t, + and - change it in the browser")
	addCommonFlags(root, common)
	root.AddCommand(newCheckCmd(stdout, stderr, common), newSummaryCmd(stdout, stderr, common), newExportCmd(stdout, stderr, common))
	root.SetFlagErrorFunc(browserFlagError(root))
	return root
}

// openFirst is loaders.Open for the browser started without a terminal.
func openFirst(args []string, o loaders.Options) ([]*model.Dataset, error) {
	defer source.Hold()() // one pass over the remote paths: see source.Hold
	return loaders.Open(args, o)
}

// browserOpening is the browser's opening of its paths.
type browserOpening struct {
	mu  sync.Mutex
	err error
}

// open is the browser's Options.Open: loaders.Each over the paths, each
// dataset handed to the browser as it is opened, with the browser's
// context (quitting ends the opening) and its count of the files read.
func (b *browserOpening) open(args []string, o loaders.Options) func(context.Context, *tui.Opening) error {
	return func(ctx context.Context, op *tui.Opening) error {
		o.Context, o.Found, o.Reading = ctx, op.Found, op.Reading
		defer source.Hold()() // one pass over the remote paths: see source.Hold
		err := loaders.Each(args, o, func(ds *model.Dataset) error {
			op.Add(ds)
			return nil
		})
		if ctx.Err() != nil {
			return nil // the browser is gone: nobody asked for the rest
		}
		b.mu.Lock()
		b.err = err
		b.mu.Unlock()
		return err
	}
}

// failed is what the opening could not open, once it is over (nil while
// it goes on: the browser ended first).
func (b *browserOpening) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

func usageError(stderr io.Writer, err error) error {
	fmt.Fprintln(stderr, "evalview:", err)
	return exitError{exitOpenFails}
}

// eachDataset opens the paths for a non-interactive command and hands fn
// each dataset, one at a time (loaders.Each: a folder of 100,000 files is
// never held whole), with its notes opened: their problems are the
// dataset's issues, as in the browser. openErrs are the paths that could
// not be opened; err is a usage error (already printed) or fn's.
//
// deep tells that the command runs every dataset's Deep: indexes then
// prepare it as they read (loaders.Options.Deep), and it runs once however
// often it is asked for.
func eachDataset(args []string, c *commonFlags, deep bool, stderr io.Writer, fn func(*model.Dataset, artifactNotes) error) (openErrs []error, err error) {
	return eachDatasetFound(args, c, deep, stderr, nil, fn)
}

// eachDatasetFound is eachDataset that also tells found what each folder
// opened held (loaders.Options.Found), when found is not nil.
func eachDatasetFound(args []string, c *commonFlags, deep bool, stderr io.Writer, found func(model.Discovery), fn func(*model.Dataset, artifactNotes) error) (openErrs []error, err error) {
	o, err := c.options()
	if err != nil {
		return nil, usageError(stderr, err)
	}
	np, err := c.notesPath()
	if err != nil {
		return nil, usageError(stderr, err)
	}
	o.Deep = deep
	o.Found = found
	opener := &noteOpener{path: np}
	defer source.Hold()() // one pass over the remote paths: see source.Hold
	werr := loaders.Each(args, o, func(ds *model.Dataset) error {
		ds.Deep = onceDeep(ds.Deep)
		an := opener.open(ds)
		defer opener.forget(ds)
		if err := fn(ds, an); err != nil {
			return fnError{err}
		}
		return nil
	})
	if werr == nil {
		return nil, nil
	}
	var fe fnError
	if errors.As(werr, &fe) {
		return nil, fe.err
	}
	if j, ok := werr.(interface{ Unwrap() []error }); ok {
		return j.Unwrap(), nil
	}
	return []error{werr}, nil
}

// fnError carries eachDataset's fn error through loaders.Each.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }
func (e fnError) Unwrap() error { return e.err }

// browserFlagError explains a flag of the browser given to a command
// ("evalview --theme dark check P"), which cobra calls unknown.
func browserFlagError(root *cobra.Command) func(*cobra.Command, error) error {
	return func(cmd *cobra.Command, err error) error {
		name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
		if cmd == root || !ok {
			return err
		}
		if f := root.LocalNonPersistentFlags().Lookup(name); f != nil {
			return fmt.Errorf("--%s is a flag of the browser (evalview [flags] PATH...), not of %s", name, cmd.Name())
		}
		return err
	}
}

// onceDeep runs a dataset's deep check once and hands every later caller
// the same report: summary needs it for the issue counts and for pass@k,
// and it may take as long as reading every record.
func onceDeep(deep func(context.Context, func(done, total int)) (*model.DeepReport, error)) func(context.Context, func(done, total int)) (*model.DeepReport, error) {
	if deep == nil {
		return nil
	}
	var (
		once sync.Once
		rep  *model.DeepReport
		err  error
	)
	return func(ctx context.Context, progress func(done, total int)) (*model.DeepReport, error) {
		once.Do(func() { rep, err = deep(ctx, progress) })
		return rep, err
	}
}

// checkFilterName refuses a --filter name that no dataset has, naming the
// filters there are. A name not among the filters known so far is looked
// for again once the indexes still growing are complete (they learn their
// filters as they read; a valid name is almost always among the first
// rows', so the wait is for a typo).
func checkFilterName(datasets []*model.Dataset, name string) error {
	if name == "" {
		return nil
	}
	found, final, names := model.LookupFilter(datasets, name)
	if !found && !final {
		for _, ds := range datasets {
			if w, ok := ds.Records.(interface{ Wait() error }); ok {
				_ = w.Wait() // a read error is the dataset's issue
			}
			if s, ok := ds.Records.(interface{ SyncDataset(*model.Dataset) bool }); ok {
				s.SyncDataset(ds)
			}
		}
		found, final, names = model.LookupFilter(datasets, name)
	}
	if !found && final {
		return tui.UnknownFilter(name, names)
	}
	return nil
}
