package rules

// Suppression rules: the gwtls.kubectl.dev/ignore annotation, by which a
// manifest accepts a finding on the object it annotates with a reason. Like
// golangci-lint's nolintlint, the tool checks its own suppressions, so that
// they do not outlive the findings they were written for, and every one says
// why. These rules are not themselves suppressible by the annotation; the
// configuration file can turn them off.

// IgnoreAnnotation is the annotation that suppresses findings on the object it
// is set on: one "RULE: reason" entry per line.
const IgnoreAnnotation = "gwtls.kubectl.dev/ignore"

func suppressionDoc(section string) Spec {
	return Spec{Document: "kubectl-gwtls configuration (docs/configuration.md)", Section: section}
}

var (
	SuppressionUnused = register(&Rule{
		ID:       "suppression/Unused",
		Severity: Warning,
		Summary:  "A suppression in the gwtls.kubectl.dev/ignore annotation matches no finding.",
		Help:     "An entry of the annotation names a rule (or a glob) that reports nothing on the annotated object, so it suppresses nothing: the problem was fixed, or the entry is on the wrong object. A stale suppression would silently hide the problem if it came back. Entries whose rules the configuration turns off are not reported.",
		Fix:      "Remove the entry, or move it to the object the finding names (a certificate finding names the Secret).",
		Spec:     []Spec{suppressionDoc("Suppressions"), {Document: "SARIF 2.1.0", Section: "section 3.35 (suppression object)"}},
	})

	SuppressionMissingReason = register(&Rule{
		ID:       "suppression/MissingReason",
		Severity: Error,
		Summary:  "A suppression in the gwtls.kubectl.dev/ignore annotation gives no reason.",
		Help:     "Every entry is RULE: reason, one per line; the reason is what a reviewer reads when they wonder whether the suppression still holds, and SARIF reports it as the suppression's justification. An entry without one suppresses nothing.",
		Fix:      "Write the entry as RULE: reason, for example listener/Accepted/HostnameConflict: shared port during migration, until 2027-01.",
		Spec:     []Spec{suppressionDoc("Suppressions"), {Document: "SARIF 2.1.0", Section: "section 3.35.5 (justification property)"}},
	})

	SuppressionUnknownRule = register(&Rule{
		ID:       "suppression/UnknownRule",
		Severity: Error,
		Summary:  "A suppression in the gwtls.kubectl.dev/ignore annotation names no rule.",
		Help:     "The entry's rule is neither a rule ID nor a glob that matches one (kubectl gwtls rules lists them; IDs are case-sensitive), so it suppresses nothing; the message names the closest rule.",
		Fix:      "Correct the rule ID as the message suggests, or remove the entry.",
		Spec:     []Spec{suppressionDoc("Suppressions"), {Document: "kubectl-gwtls rule catalog (docs/rules.md)", Section: "rule IDs"}},
	})
)
