//go:build race

package render_test

// raceEnabled: under the race detector sync.Pool drops what it is given at
// random (encoding/json's buffers among it), so allocation budgets do not hold.
const raceEnabled = true
