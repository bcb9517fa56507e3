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
	// Names are short: the runes and the two rows live on the stack unless a
	// side is longer than the buffers (then append moves them to the heap).
	var bufA, bufB [64]rune
	var bufPrev, bufCur [65]int
	ra, rb := runes(bufA[:0], a), runes(bufB[:0], b)
	prev, cur := bufPrev[:0], bufCur[:0]
	for j := 0; j <= len(rb); j++ {
		prev = append(prev, j)
		cur = append(cur, 0)
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

// runes appends s's first maxCompared runes to buf.
func runes(buf []rune, s string) []rune {
	for _, r := range s {
		if len(buf) == maxCompared {
			break
		}
		buf = append(buf, r)
	}
	return buf
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
