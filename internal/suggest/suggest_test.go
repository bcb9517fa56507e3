package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"https", "https", 0}, {"htps", "https", 1}, {"https-1", "https-2", 1},
		{"kitten", "sitting", 3}, {"", "abc", 3}, {"bücher", "bucher", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	if best, d := Closest("x", nil); best != "" || d != -1 {
		t.Errorf("Closest without candidates = %q, %d", best, d)
	}
	if best, d := Closest("http-1", []string{"https-1", "http-2", "tcp"}); best != "https-1" || d != 1 {
		t.Errorf("Closest = %q, %d; want the first of the ties, https-1, 1", best, d)
	}
	if best, d := Closest("zzzz", []string{"a", "b"}); best != "a" || d != 4 {
		t.Errorf("Closest = %q, %d; want a, 4 (far candidates are still returned)", best, d)
	}
}

// Names longer than the stack buffers still compare in full, up to the cap.
func TestDistanceLong(t *testing.T) {
	long := strings.Repeat("listener", 20) // 160 runes
	if got := Distance(long, long[:159]+"X"); got != 1 {
		t.Errorf("one substitution in 160 runes: got %d", got)
	}
	if got := Distance(long+"ü", long); got != 1 {
		t.Errorf("one insertion after 160 runes: got %d", got)
	}
	capped := strings.Repeat("a", maxCompared)
	if got := Distance(capped+"xyz", capped); got != 0 {
		t.Errorf("runes past %d are not compared: got %d", maxCompared, got)
	}
}
