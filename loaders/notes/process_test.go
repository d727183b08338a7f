package notes

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests here run the test binary again as other processes (several
// windows labelling one artifact, a process killed during a save, a user
// who cannot write the artifact's folder): childEnv tells it which part
// to play, in TestNotesChild.
const childEnv = "EVALVIEW_NOTES_CHILD"

// child runs the test binary as a child process playing role with args.
func child(role string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestNotesChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+role, "EVALVIEW_NOTES_ARGS="+strings.Join(args, "\x1f"))
	return cmd
}

// TestNotesChild is not a test: it is what a child process runs.
func TestNotesChild(t *testing.T) {
	role := os.Getenv(childEnv)
	if role == "" {
		t.Skip("runs only as a child process of the tests in this file")
	}
	args := strings.Split(os.Getenv("EVALVIEW_NOTES_ARGS"), "\x1f")
	if err := playChild(role, args); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

func playChild(role string, args []string) error {
	switch role {
	case "label": // art, name, n: label n records, retrying what is kept
		n, _ := strconv.Atoi(args[2])
		s, issues := Open(args[0], "")
		if s == nil {
			return fmt.Errorf("open: %v", issues)
		}
		for i := range n {
			_, err := s.Set(filepath.Base(args[0]), args[1]+"-"+strconv.Itoa(i), []string{"by " + args[1]}, "")
			if err != nil && !errors.Is(err, ErrLocked) {
				return err
			}
		}
		for s.Pending() > 0 {
			if _, err := s.Flush(lockWait); err != nil && !errors.Is(err, ErrLocked) {
				return err
			}
		}
		return nil
	case "saver": // art: save notes until killed, printing each one saved
		s, issues := Open(args[0], "")
		if s == nil {
			return fmt.Errorf("open: %v", issues)
		}
		w := bufio.NewWriter(os.Stdout)
		for i := 0; ; i++ {
			id := args[1] + "-" + strconv.Itoa(i)
			if _, err := s.Set(filepath.Base(args[0]), id, []string{"kept"}, strings.Repeat("note ", 50)); err != nil {
				return err
			}
			fmt.Fprintln(w, id)
			w.Flush()
		}
	case "set": // art, id, label: one note, as whoever runs it
		s, issues := Open(args[0], "")
		if s == nil {
			return fmt.Errorf("open: %v", issues)
		}
		if _, err := s.Set(filepath.Base(args[0]), args[1], []string{args[2]}, ""); err != nil {
			return err
		}
		fmt.Println(s.Path())
		return nil
	}
	return fmt.Errorf("unknown role %q", role)
}

// TestSeveralProcessesLoseNoNote: 8 processes labelling 100 records each
// in one artifact's notes at once keep all 400 notes (before the lock was
// kept: 4 processes kept 399 of 400, with every save reporting success).
func TestSeveralProcessesLoseNoNote(t *testing.T) {
	procs, each := 8, 50
	if testing.Short() {
		procs, each = 4, 25
	}
	dir, art := newArtifact(t)
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := child("label", art, "w"+strconv.Itoa(p), strconv.Itoa(each)).CombinedOutput()
			if err != nil {
				errs[p] = fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatalf("issues: %v", issues)
	}
	if got := s.Len("samples_x.jsonl"); got != procs*each {
		t.Errorf("%d notes kept of %d", got, procs*each)
	}
	for p := range procs {
		for i := range each {
			if l, _ := s.Get("samples_x.jsonl", "w"+strconv.Itoa(p)+"-"+strconv.Itoa(i)); len(l) != 1 {
				t.Fatalf("note w%d-%d lost", p, i)
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestKillDuringSave kills a process saving notes as fast as it can, at
// random points, five times over one file: every note it reported saved
// is there, and the file has no damaged line.
func TestKillDuringSave(t *testing.T) {
	_, art := newArtifact(t)
	var saved []string
	for round := range 5 {
		cmd := child("saver", art, "r"+strconv.Itoa(round))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		// Kill at a different point each round: after 5 to 45 saves,
		// then a little later still, while the next save runs.
		for n := 0; n < 5+10*round && sc.Scan(); n++ {
			saved = append(saved, sc.Text())
		}
		time.Sleep(time.Duration(round) * time.Millisecond)
		cmd.Process.Kill()
		for sc.Scan() { // lines written before the kill
			saved = append(saved, sc.Text())
		}
		cmd.Wait()
	}
	s, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatalf("issues after the kills: %v", issues)
	}
	for _, id := range saved {
		if l, _ := s.Get("samples_x.jsonl", id); len(l) != 1 {
			t.Errorf("note %s was reported saved and is lost", id)
		}
	}
	if len(saved) < 5 {
		t.Fatalf("only %d saves", len(saved))
	}
}
