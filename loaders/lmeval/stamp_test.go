package lmeval

import "testing"

// TestStampOf: the hand matcher finds what stampRE finds.
func TestStampOf(t *testing.T) {
	for _, name := range []string{
		"samples_gsm8k_2025-08-07T11-42-40.066002.jsonl",
		"results_2025-08-07T11:42:40.jsonl",
		"results_2025-08-07T11-42-40.json",
		"results_2025-08-07T11-42-40..json",
		"results_2025-08-07T11-42-40.x",
		"a2025-08-07T11-42-4",
		"2024-01-01T00-00-00.1_and_2025-08-07T11-42-40.5",
		"12025-08-07T11-42-40.123",
		"gsm8k-phi-3-mini_2025-08-07T11-42-40.066002.json",
		"2025-08-07 11-42-40",
		"2025-08-07T11_42_40",
		"",
		"samples_2025-08-07T11-42-40.066002",
		"x2025-13-99T99:99:99.9999999999z",
	} {
		if got, want := stampOf(name), stampRE.FindString(name); got != want {
			t.Errorf("stampOf(%q) = %q, stampRE finds %q", name, got, want)
		}
	}
}
