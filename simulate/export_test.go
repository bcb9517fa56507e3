package simulate

// RowsPerPart is how many rows a core says at a time, for tests that need the
// parallel path.
const RowsPerPart = rowsPerPart
