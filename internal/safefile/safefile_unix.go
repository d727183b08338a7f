//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// NoFollow is added to the flags of every open here: no symbolic link is
// followed at the last element of the path (ELOOP instead), and a FIFO
// opens at once rather than wait for a writer (on a regular file
// O_NONBLOCK changes nothing).
const NoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// Owned reports whether fi (from Lstat or Stat) is a file of this
// process's user.
func Owned(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
