package model

import "testing"

// export writes full values: the target label, cut for the targets table
// and queries, is written as the whole target, and the record's own label
// map is left as it is.
func TestExportRowFullValues(t *testing.T) {
	target := "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer’s market.\n#### 18"
	labels := map[string]string{"target": "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2…", "doc.level": "1"}
	r := &Record{Summary: Summary{ID: "0", Labels: LabelsOf(labels)}, Target: target}
	row := NewExportRow(&Dataset{Kind: KindLMEval, Records: NewMemIndex(nil)}, r)
	if row.Labels["target"] != target || row.Labels["doc.level"] != "1" || row.Target != target {
		t.Errorf("labels = %q", row.Labels)
	}
	if labels["target"] == target {
		t.Error("the record's shared labels were changed")
	}
}
