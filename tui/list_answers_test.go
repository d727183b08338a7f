package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/ui"
)

// TestAnswerColumnsPerFilter: each filter's extracted answer is a column
// (answer.FILTER, the name the chooser and the query use), shown side by
// side under the filters' names, whatever filter the list shows.
func TestAnswerColumnsPerFilter(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 220, 30)
	press(m, "c")
	if s := ansi.Strip(m.sheets.top().View()); !strings.Contains(s, "answer.strict-match (strict-match)") {
		t.Fatalf("the column chooser does not offer the filters' answers:\n%s", s)
	}
	press(m, "esc")
	send(m, ui.ColumnsMsg{Columns: []string{"id", "answer.strict-match", "answer.flexible-extract", "title", "score"}})
	head := strings.Split(ansi.Strip(m.list.View()), "\n")[0]
	if !strings.Contains(head, "strict-match│flexible-extract") {
		t.Errorf("heading %q", head)
	}
	drive(m, m.setListQuery(`answer.flexible-extract~\d`))
	if len(m.list.Visible()) == 0 {
		t.Fatalf("no record has a flexible answer")
	}
	row := strings.Split(ansi.Strip(m.list.View()), "\n")[1]
	if strings.Count(row, "│") != 1 {
		t.Errorf("row without the rule between answers: %q", row)
	}
}
