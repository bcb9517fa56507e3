package annotations

// maxCompared bounds the work for absurdly long keys: a real annotation key
// is at most 253+1+63 bytes.
const maxCompared = 320

// distance is the Levenshtein edit distance between a and b, in runes.
func distance(a, b string) int {
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

// closest returns the candidate nearest to s by edit distance; ties go to
// the candidate listed first, so the answer is deterministic.
func closest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if d := distance(s, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
