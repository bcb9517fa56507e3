package rules

// Annotation rules: implementation-specific annotations on routes, checked
// against the sets the implementations document (annotations/sets, spec 001
// for Gwin's gwin.yandex.cloud/ keys).

var (
	AnnotationUnknownKey = register(&Rule{
		ID:       "annotation/unknown-key",
		Severity: Warning,
		Summary:  "An annotation under an implementation's prefix is not one it documents.",
		Help:     "A key under a prefix an implementation owns (gwin.yandex.cloud/) that its reference does not list is most likely a typo, and the implementation ignores it; the message names the closest documented key.",
		Fix:      "Rename it to the documented key, or remove it.",
		Spec:     []Spec{gwin("Annotations cheatsheet"), gwin("Annotations reference")},
	})

	AnnotationWrongKind = register(&Rule{
		ID:       "annotation/wrong-kind",
		Severity: Warning,
		Summary:  "A documented annotation is set on a kind of object it is not documented for.",
		Help:     "The implementation documents the key for other kinds of object (for example a TLSRoute-only key on an HTTPRoute); where it is set it has no documented effect.",
		Fix:      "Move it to an object of the kind it is documented for, or remove it.",
		Spec:     []Spec{gwin("Annotations reference")},
	})

	AnnotationInvalidValue = register(&Rule{
		ID:       "annotation/invalid-value",
		Severity: Error,
		Summary:  "An annotation's value does not have its documented type.",
		Help:     "The value is not of the type the reference documents (a whole number in range, a duration with a unit, true or false, one of the listed values, PEM certificates, a hostname, a header name), so the implementation rejects or misreads it. A spelling the implementation may still accept (True for true) is a warning.",
		Fix:      "Write the value as the reference documents it; the finding's fix gives the form.",
		Spec:     []Spec{gwin("Annotations reference")},
	})

	AnnotationNoEffect = register(&Rule{
		ID:       "annotation/no-effect",
		Severity: Warning,
		Summary:  "An annotation is made moot by another annotation's value.",
		Help:     "The reference says another annotation's value (for example TLS to backends without SNI) makes this key irrelevant, so it has no effect as configured.",
		Fix:      "Remove it, or change the annotation that overrides it.",
		Spec:     []Spec{gwin("Backend TLS configuration")},
	})

	AnnotationBackendTLSPolicyConflict = register(&Rule{
		ID:       "annotation/backendtlspolicy-conflict",
		Severity: Error,
		Summary:  "A route's annotations contradict the BackendTLSPolicy of its backend.",
		Help:     "The route's annotations and the BackendTLSPolicy of the same backend set what cannot both hold: a backend SNI other than the policy's hostname, or no SNI and no verification where the policy requires verification (errors); or both name the trusted CA, and the implementation's reference does not say which is used (warning).",
		Fix:      "Make the annotation agree with the BackendTLSPolicy, or remove it and let the policy decide.",
		Spec:     []Spec{gwin("Backend TLS configuration"), gep1897("API")},
	})
)
