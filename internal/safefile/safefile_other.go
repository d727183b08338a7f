//go:build !unix

package safefile

import "io/fs"

// NoFollow is 0 where the system has no O_NOFOLLOW (Windows): there,
// Check's look before the open and the comparison after it do the work.
const NoFollow = 0

func isLoop(error) bool { return false }

func isNotDir(error) bool { return false }

// Owned is false where files have no owner evalview can read: nothing is
// removed on that ground.
func Owned(fs.FileInfo) bool { return false }
