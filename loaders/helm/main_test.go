package helm

import (
	"testing"

	"evalview/loaders/internal/fuzzmin"
)

func TestMain(m *testing.M) { fuzzmin.Main(m) }
