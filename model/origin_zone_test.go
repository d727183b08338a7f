package model

import "testing"

// TestRunTimeZone: a stamp that names its zone keeps it, so a run zip's
// created_at in UTC is not read as the local time its folder's name gives.
func TestRunTimeZone(t *testing.T) {
	for in, want := range map[string]string{
		"2025-09-09T13-31-53.431753":       "2025-09-09 13:31",
		"2026-03-24T04:18:09.126221+00:00": "2026-03-24 04:18 UTC",
		"2025-07-05T09:59:00Z":             "2025-07-05 09:59 UTC",
		"2025-07-05T09:59:00+08:00":        "2025-07-05 09:59 +08:00",
		"2025-07-05T09:59:00-05:30":        "2025-07-05 09:59 -05:30",
		"2025-07-05 09:59":                 "2025-07-05 09:59",
		"not a stamp":                      "not a stamp",
	} {
		if got := RunTime(in); got != want {
			t.Errorf("RunTime(%q) = %q, want %q", in, got, want)
		}
	}
}
