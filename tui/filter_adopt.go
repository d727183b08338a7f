package tui

// adoptFilters selects a filter for the datasets whose index found its
// first filters after the browser started (a dataset indexed in the
// background has none at first): without this the list, the header and
// the detail stayed on "no filter" until f was pressed, showing the first
// filter's outcomes unmarked.
func (m *Model) adoptFilters() {
	for i, ds := range m.datasets {
		st := &m.states[i]
		if i == m.cur {
			st = &m.list.st
		}
		if st.filter >= 0 || len(ds.Filters) == 0 {
			continue
		}
		st.filter = initialFilter(ds, m.opts.Filter)
		if i == m.cur {
			m.syncFilter()
		}
	}
}
