package analyze

// What the user's configuration, the manifest's suppressions and a baseline
// make of the findings. The engine never sets these; package triage does,
// after the analysis, and every renderer reads them.

// Suppression says why a finding is not reported: the manifest accepts it with
// a reason (SARIF 2.1.0 section 3.35, a suppression of kind inSource).
type Suppression struct {
	// Kind is SuppressionInSource: the suppression lives in the analyzed manifest.
	Kind string `json:"kind"`
	// Rule is the rule ID or glob as the annotation wrote it.
	Rule string `json:"rule"`
	// Justification is the reason the annotation gives.
	Justification string `json:"justification"`
}

// SuppressionInSource is the SARIF kind of a suppression written in the
// analyzed files: the annotation on the object the finding names.
const SuppressionInSource = "inSource"

// BaselineState is a finding's state against a baseline (SARIF 2.1.0 section
// 3.27.24): new, not in the baseline; unchanged, in it; updated, in it with
// another message; absent, in it and no longer found.
type BaselineState string

const (
	BaselineNew       BaselineState = "new"
	BaselineUnchanged BaselineState = "unchanged"
	BaselineUpdated   BaselineState = "updated"
	BaselineAbsent    BaselineState = "absent"
)

// BaselineComparison is a run compared with a baseline.
type BaselineComparison struct {
	// File is the baseline's path, as given.
	File string
	// Known are the findings the baseline has (unchanged or updated): not
	// reported, and not counted against --fail-on.
	Known []Finding
	// Absent are the baseline's findings this run no longer has.
	Absent []Finding
}
