package analyze

// SetParallelMin lets tests send every step through the concurrent path however
// small the input; it returns the previous value.
func SetParallelMin(n int) int {
	old := parallelMin
	parallelMin = n
	return old
}

// SetSelectorBudget sets how many namespace-selector matches per route the
// engine may spend on per-namespace tables (0: none, every route matches
// directly); it returns the previous value.
func SetSelectorBudget(n int) int {
	old := selectorBudget
	selectorBudget = n
	return old
}
