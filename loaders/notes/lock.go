package notes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"evalview/internal/safefile"
)

// ErrLocked is matched (errors.Is) by a save that could not have the
// notes file's lock in time: another evalview was writing it. The note is
// kept in memory and saved with the next one, or by Flush.
var ErrLocked = errors.New("another evalview is writing the notes file")

// lockWait is how long a save waits for the lock. The browser saves on its
// event loop, so it is short; writes take milliseconds, and a longer hold
// means a stuck process.
var lockWait = 2 * time.Second

// lockPath is the lock file of notes file path: beside it, hidden. The
// notes file itself cannot be locked, since each write replaces it (a
// rename), and a lock on the old file would not stop a writer of the new.
func lockPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// lockFlag opens the lock file: created when missing, never through a
// symbolic link, never waiting on a FIFO (safefile.NoFollow).
const lockFlag = os.O_CREATE | os.O_RDONLY | safefile.NoFollow

// acquire takes the exclusive lock of notes file path, waiting up to wait,
// and returns its release. mkdir creates the folder first. Errors wrap
// ErrLocked when another process holds the lock; safefile.ErrNotFile when
// the lock file is a symbolic link, a FIFO, a device or a folder (someone
// put it there: it is neither opened nor created through); any other
// error means the lock file cannot be opened (a folder the user cannot
// write), so the notes file cannot be written either.
//
// The lock file exists only while a save holds it: the release removes
// it (release), so that none stays beside the data. That is safe because
// a save checks, once it has the lock, that the file it locked is still
// the one at the path; a save that waited on a file removed since holds
// the lock of nothing, and tries again on the file now there.
//
// github.com/gofrs/flock rather than syscall.Flock: it locks on Windows
// too (LockFileEx), where syscall.Flock does not exist, and it is the
// lock other Go tools use.
func acquire(path string, mkdir bool, wait time.Duration) (func(), error) {
	if mkdir {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
	}
	lp := lockPath(path)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for {
		if _, err := safefile.Check(lp); err != nil {
			return nil, err
		}
		// Readable by others, so that another user's evalview sharing the
		// folder can take the lock too.
		fl := flock.New(lp, flock.SetFlag(lockFlag), flock.SetPermissions(0o644))
		ok, err := fl.TryLockContext(ctx, 3*time.Millisecond)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			if errors.Is(err, syscall.ELOOP) { // a link put there since the check
				return nil, &safefile.NotFileError{Path: lp, What: "a symbolic link"}
			}
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: the lock of %s was held for %v", ErrLocked, path, wait)
		}
		fi, err := fl.Stat()
		if err != nil {
			fl.Unlock()
			return nil, err
		}
		if _, err := safefile.Check(lp); err != nil || !fi.Mode().IsRegular() {
			fl.Unlock()
			if err == nil {
				err = &safefile.NotFileError{Path: lp, What: "a special file"}
			}
			return nil, err
		}
		if at, err := os.Lstat(lp); err != nil || !os.SameFile(fi, at) {
			// Removed (and perhaps made again) by the save that held
			// it while this one waited: lock the one there now.
			fl.Unlock()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: the lock of %s was held for %v", ErrLocked, path, wait)
			}
			continue
		}
		return func() { release(fl, lp) }, nil
	}
}

// release removes the lock file lp and lets go of its lock fl, so that no
// lock file stays beside the data (issue 31). It removes the file only
// while it is still the one locked, empty, and this user's: another
// user's lock file in a shared folder is left for its owner to remove.
// Where files have no owner to read (Windows, which cannot remove an open
// file either), the lock file stays.
//
// Every evalview that removes lock files checks after locking that it
// holds the file at the path (acquire), so it does not matter which of
// them created it: one left by a kill or by an evalview from before lock
// files were removed goes at the next save. An evalview from before that
// check, waiting on the lock at the moment of a removal, could write at
// the same time as another save; saves are rare and short, and the rename
// keeps the file whole even then.
func release(fl *flock.Flock, lp string) {
	if fi, err := fl.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 && safefile.Owned(fi) {
		if at, err := os.Lstat(lp); err == nil && os.SameFile(fi, at) {
			os.Remove(lp)
		}
	}
	_ = fl.Unlock()
}
