package load

// withoutManagedFields returns a JSON object with metadata.managedFields cut out,
// as kubectl hides it: it is the API server's bookkeeping, often larger than the
// spec, and nothing this tool reads or prints. Anything the scanner cannot follow
// is returned as is (the decoder then reports it).
func withoutManagedFields(js []byte) []byte {
	md, ok := findMember(js, "metadata")
	if !ok {
		return js
	}
	meta := js[md.valueStart:md.valueEnd]
	mf, ok := findMember(meta, "managedFields")
	if !ok {
		return js
	}
	from, to := mf.prevEnd, mf.valueEnd // the comma before it, and the member
	if mf.first {
		// No comma before: cut the member and the comma after it, if any.
		from, to = mf.keyStart, mf.valueEnd
		if j := skipSpace(meta, to); j < len(meta) && meta[j] == ',' {
			to = skipSpace(meta, j+1)
		}
	}
	from, to = md.valueStart+from, md.valueStart+to
	out := make([]byte, 0, len(js)-(to-from))
	out = append(out, js[:from]...)
	return append(out, js[to:]...)
}

// member is where one member of a JSON object is.
type member struct {
	first                bool
	prevEnd              int // where the previous member's value ends
	keyStart             int
	valueStart, valueEnd int
}

// findMember finds the first member named key of the JSON object js.
func findMember(js []byte, key string) (member, bool) {
	i := skipSpace(js, 0)
	if i >= len(js) || js[i] != '{' {
		return member{}, false
	}
	i++
	m := member{first: true, prevEnd: i}
	for {
		i = skipSpace(js, i)
		if i >= len(js) || js[i] == '}' {
			return member{}, false
		}
		if !m.first {
			if js[i] != ',' {
				return member{}, false
			}
			i = skipSpace(js, i+1)
		}
		ke, ok := stringEnd(js, i)
		if !ok {
			return member{}, false
		}
		m.keyStart = i
		i = skipSpace(js, ke)
		if i >= len(js) || js[i] != ':' {
			return member{}, false
		}
		m.valueStart = skipSpace(js, i+1)
		if m.valueEnd, ok = valueEnd(js, m.valueStart); !ok {
			return member{}, false
		}
		if string(js[m.keyStart+1:ke-1]) == key {
			return m, true
		}
		m.first, m.prevEnd, i = false, m.valueEnd, m.valueEnd
	}
}

func skipSpace(js []byte, i int) int {
	for i < len(js) && (js[i] == ' ' || js[i] == '\t' || js[i] == '\n' || js[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the end of the JSON string that starts at js[i].
func stringEnd(js []byte, i int) (int, bool) {
	if i >= len(js) || js[i] != '"' {
		return 0, false
	}
	for j := i + 1; j < len(js); j++ {
		switch js[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// valueEnd returns the end of the JSON value that starts at js[i].
func valueEnd(js []byte, i int) (int, bool) {
	if i >= len(js) {
		return 0, false
	}
	switch js[i] {
	case '"':
		return stringEnd(js, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(js); j++ {
			switch js[j] {
			case '"':
				e, ok := stringEnd(js, j)
				if !ok {
					return 0, false
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(js) && js[j] != ',' && js[j] != '}' && js[j] != ']' && js[j] != ' ' && js[j] != '\t' && js[j] != '\n' && js[j] != '\r' {
		j++
	}
	return j, j > i
}
