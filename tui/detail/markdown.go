package detail

import (
	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// markdownSyncBytes is the record size up to which a tab with markdown
// renders at once in Update: markdown is slower than plain wrapping, so
// bigger records render in a command (see Pane.Refresh).
const markdownSyncBytes = 4 << 10

// markdownOn reports whether message and response text of the shown
// record renders as markdown: the user's choice for this kind of dataset
// when made (m), else markdown unless the format asks for raw text
// (Presentation.RawText: lm-eval's math and chains of thought).
func (d *Pane) markdownOn() bool {
	if d.ds == nil {
		return false
	}
	if on, ok := d.markdown[d.ds.Kind]; ok {
		return on
	}
	return !d.ds.Presentation.RawText
}

// ToggleMarkdown switches the shown kind between markdown and raw text;
// the choice holds for every dataset of that kind until toggled again.
func (d *Pane) ToggleMarkdown() tea.Cmd {
	if d.ds == nil {
		return nil
	}
	if d.markdown == nil {
		d.markdown = map[model.Kind]bool{}
	}
	d.markdown[d.ds.Kind] = !d.markdownOn()
	return d.Refresh()
}

// MarkdownNote tells, after m, how text now shows: on plain answers the
// two look alike, and the key must not seem to do nothing.
func (d *Pane) MarkdownNote() string {
	if d.ds == nil {
		return ""
	}
	if d.markdownOn() {
		return "markdown (m: raw)"
	}
	return "raw text (m: markdown)"
}

// syncBytes is the record size up to which tab k renders in Update.
func (d *Pane) syncBytes(k renderKey) int {
	if k.markdown {
		return markdownSyncBytes
	}
	return syncRenderBytes
}
