// Package suggest finds the "did you mean" candidate for a mistyped name: a
// sectionName, an annotation key, an enum value.
package suggest

// maxCompared bounds the work for absurdly long inputs: names this tool
// suggests (annotation keys, listener names, enum values) are at most 253+1+63
// bytes.
const maxCompared = 320

// Distance is the Levenshtein edit distance between a and b, in runes (each
// side cut to its first 320).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > maxCompared {
		ra = ra[:maxCompared]
	}
	if len(rb) > maxCompared {
		rb = rb[:maxCompared]
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to s by edit distance and that
// distance; ties go to the candidate listed first, so the answer is
// deterministic. Without candidates it returns "" and -1.
func Closest(s string, candidates []string) (best string, distance int) {
	distance = -1
	for _, c := range candidates {
		if d := Distance(s, c); distance < 0 || d < distance {
			best, distance = c, d
		}
	}
	return best, distance
}
