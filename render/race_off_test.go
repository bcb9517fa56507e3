//go:build !race

package render_test

const raceEnabled = false
