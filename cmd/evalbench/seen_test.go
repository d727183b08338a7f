package main

import "testing"

// TestCountsAgree: the count row is met only when every run's complete
// count, at the first screen and once indexed, is the same.
func TestCountsAgree(t *testing.T) {
	var s searchSeen
	s = s.best(searchSeen{counts: []int{20086, 20086}}, true)
	s = s.best(searchSeen{counts: []int{20086, 20086}}, false)
	if ok, note := s.countsAgree(); !ok || note != "" {
		t.Errorf("equal counts: %v %q", ok, note)
	}
	s = s.best(searchSeen{counts: []int{18523, 20086}}, false)
	if ok, note := s.countsAgree(); ok || note == "" {
		t.Errorf("a short count went unnoticed: %v %q", ok, note)
	}
}
