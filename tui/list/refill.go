package list

import "slices"

// refillColumns spends the room a dropped title leaves (a testset's title
// ranks below its other columns, see columnPriorityIn): the columns
// squeezed while the title still wanted its minimum grow back to their
// full width, then the dropped columns come back, the highest ranked
// first, where each still fits at its soft width. Without it the room
// would widen the last column and "steps" would stay cut to "ste…".
func refillColumns(cols, dropped []colLayout, fields []string, w int) []colLayout {
	rest := w - usedWidth(cols)
	// The least squeezed first: a cut heading ("ste…") needs a cell or
	// two, a long id would take them all.
	byDeficit := make([]int, len(cols))
	for i := range byDeficit {
		byDeficit[i] = i
	}
	slices.SortStableFunc(byDeficit, func(a, b int) int {
		return (cols[a].full - cols[a].w) - (cols[b].full - cols[b].w)
	})
	for _, i := range byDeficit {
		if g := min(rest, cols[i].full-cols[i].w); g > 0 {
			cols[i].w += g
			rest -= g
		}
	}
	for j := len(dropped) - 1; j >= 0; j-- {
		d := dropped[j]
		if d.flex || rest < max(1, d.soft)+1 {
			continue
		}
		d.w = min(d.full, rest-1)
		rest -= d.w + 1
		// Back in its place in the chosen order.
		order := slices.Index(fields, d.field)
		at := slices.IndexFunc(cols, func(c colLayout) bool { return slices.Index(fields, c.field) > order })
		if at < 0 {
			at = len(cols)
		}
		cols = slices.Insert(cols, at, d)
	}
	return cols
}
