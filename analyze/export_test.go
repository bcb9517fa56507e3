package analyze

// SetParallelMin lets tests send every step through the concurrent path however
// small the input; it returns the previous value.
func SetParallelMin(n int) int {
	old := parallelMin
	parallelMin = n
	return old
}
