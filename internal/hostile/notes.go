package hostile

import (
	"errors"
	"os"

	"evalview/internal/testos"
)

// Plant is one thing that someone who can write an artifact's folder, but
// is not the user, puts where evalview writes beside it (the notes
// sidecar, its lock file, a temporary file's name), to have a save write
// elsewhere, hang, or fill the memory.
type Plant struct {
	Name string
	// Make puts the thing at path and returns what a refusal must say
	// of it after the path ("is a symbolic link to /dev/zero"); an error
	// where the system cannot make it (no FIFOs, no /dev/zero, no links),
	// which a test skips.
	Make func(path string) (string, error)
}

// Plants returns the things planted, each a case of its own: links to
// victim (a file outside the folder that must stay as it is), to a file
// that does not exist yet (victim+".created", which must not appear) and
// to /dev/zero (endless); a FIFO (an open waits for a writer); a folder;
// and, when tooLarge is not 0, a sparse file of tooLarge bytes (costs no
// disk), for readers with a size limit.
func Plants(victim string, tooLarge int64) []Plant {
	link := func(to string) func(string) (string, error) {
		return func(p string) (string, error) {
			if err := os.Symlink(to, p); err != nil {
				return "", err
			}
			return "is a symbolic link to " + to, nil
		}
	}
	plants := []Plant{
		{"symlink to a file", link(victim)},
		{"dangling symlink", link(victim + ".created")},
		{"symlink to /dev/zero", func(p string) (string, error) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				return "", err
			}
			return link("/dev/zero")(p)
		}},
		{"FIFO", func(p string) (string, error) {
			return "is a named pipe (FIFO)", testos.Mkfifo(p)
		}},
		{"folder", func(p string) (string, error) {
			return "is a folder", os.Mkdir(p, 0o755)
		}},
	}
	if tooLarge > 0 {
		plants = append(plants, Plant{"too large", func(p string) (string, error) {
			f, err := os.Create(p)
			if err != nil {
				return "", err
			}
			err = errors.Join(f.Truncate(tooLarge), f.Close())
			return "is larger than", err
		}})
	}
	return plants
}
