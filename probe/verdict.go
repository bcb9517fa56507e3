package probe

// Verdict is what a replayed or live handshake proved.
type Verdict string

const (
	// VerdictOK: what the client saw is what the configuration promises, and a
	// client would accept it.
	VerdictOK Verdict = "ok"
	// VerdictMismatch: the connection did not do what the engine predicted.
	VerdictMismatch Verdict = "mismatch"
	// VerdictFinding: it did what was predicted, but a client would fail (the
	// certificate does not cover the SNI, the chain does not verify, a stale
	// certificate).
	VerdictFinding Verdict = "finding"
)

// Replays are the handshakes of one replay.
type Replays []Replay

// Findings is the number of handshakes that are not as the configuration
// promises: probe's exit status counts them.
func (rs Replays) Findings() int {
	n := 0
	for _, r := range rs {
		if r.Verdict != VerdictOK {
			n++
		}
	}
	return n
}

// Lives are the handshakes of one live probe.
type Lives []Live

// Findings is the number of handshakes that are findings.
func (ls Lives) Findings() int {
	n := 0
	for _, l := range ls {
		if l.Verdict != VerdictOK {
			n++
		}
	}
	return n
}

// Validity is a presented certificate's validity window at --now.
type Validity string

const (
	Valid       Validity = "valid"
	Expired     Validity = "expired"
	NotYetValid Validity = "not yet valid"
)
