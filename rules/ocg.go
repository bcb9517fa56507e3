package rules

// Out-of-cluster Gateway rules (GEP-3792, provisional): the Gateway's
// spec.mesh and the Mesh's spec.ocg, read from the raw objects. Every finding
// about them says the API is provisional.

var (
	OCGFeatureNotSupported = register(&Rule{
		ID:       "ocg/FeatureNotSupported",
		Severity: Warning,
		Summary:  "A Gateway sets spec.mesh but its implementation does not list the OffClusterGateway feature.",
		Help:     "Both the Gateway's and the mesh's implementation must list the OffClusterGateway feature for an out-of-cluster Gateway to join the mesh; the GatewayClass's status.supportedFeatures (or --supported-features) does not, so spec.mesh is likely ignored.",
		Fix:      "Use a GatewayClass whose implementation supports OffClusterGateway, or remove spec.mesh.",
		Spec:     []Spec{gep3792("Conformance Details: Feature Names")},
	})

	OCGTrustBundleMissing = register(&Rule{
		ID:       "ocg/TrustBundleMissing",
		Severity: Error,
		Summary:  "A mesh configuration lists no trust bundle Secret.",
		Help:     "The Gateway (spec.mesh.trustBundle) and the mesh (spec.ocg.trustBundle) each name the CA certificates they trust for the other side's mTLS certificates; an empty list trusts nothing, so no mTLS connection between them verifies.",
		Fix:      "Reference the Secret holding the CA certificate(s) of the other side.",
		Spec:     []Spec{gep3792("Solving the Trust Problem")},
	})

	OCGTrustBundleInvalid = register(&Rule{
		ID:       "ocg/TrustBundleInvalid",
		Severity: Error,
		Summary:  "A trust bundle entry is not a Secret with PEM CA certificates.",
		Help:     "A trust bundle entry must be a core Secret holding PEM CA certificates in ca.crt (or tls.crt); this one is another kind, has neither key, or holds data that does not parse.",
		Fix:      "Reference a Secret with the PEM CA certificates in ca.crt.",
		Spec:     []Spec{gep3792("Solving the Trust Problem")},
	})

	OCGTrustBundleNotFound = register(&Rule{
		ID:       "ocg/TrustBundleNotFound",
		Severity: Error,
		Summary:  "A trust bundle Secret does not exist.",
		Help:     "A trust bundle names a Secret that is not in the input, so the CA certificates the other side is verified against are missing.",
		Fix:      "Create the Secret with the CA certificate(s) in ca.crt, fix the name, or declare it with --external.",
		Spec:     []Spec{gep3792("Solving the Trust Problem")},
	})

	OCGTrustBundleNotCA = register(&Rule{
		ID:       "ocg/TrustBundleNotCA",
		Severity: Error,
		Summary:  "A trust bundle holds a certificate that is not a CA.",
		Help:     "Each side's mTLS certificate must be ultimately signed by a certificate in the other side's trust bundle; a leaf certificate (basicConstraints CA:FALSE) signs nothing, so it anchors no verification.",
		Fix:      "Put the CA that signs the other side's mTLS certificates in the bundle, not a leaf.",
		Spec:     []Spec{gep3792("Solving the Protocol Problem")},
	})

	OCGTrustBundleExpired = register(&Rule{
		ID:       "ocg/TrustBundleExpired",
		Severity: Error,
		Summary:  "A trust bundle CA is outside its validity window.",
		Help:     "A CA certificate in a trust bundle has expired, or is not valid yet, at the analysis time (--now); the certificates it signed do not verify against it.",
		Fix:      "Rotate the CA and update the Secret (or, for one not valid yet, check its notBefore).",
		Spec:     []Spec{gep3792("Solving the Trust Problem"), rfc("5280", "section 4.1.2.5 (Validity)")},
	})

	OCGSelectorMissing = register(&Rule{
		ID:       "ocg/SelectorMissing",
		Severity: Warning,
		Summary:  "A Gateway's spec.mesh has no selector, so no route is meshed.",
		Help:     "An out-of-cluster Gateway treats as meshed the routes that match its label selector, or whose namespace does; without a selector it treats none as meshed and never reaches their backends over the mesh.",
		Fix:      "Set spec.mesh.selector to the label the mesh uses for meshed namespaces (linkerd.io/inject: enabled, istio-injection: enabled).",
		Spec:     []Spec{gep3792("Solving the Discovery Problem")},
	})

	OCGSelectorInvalid = register(&Rule{
		ID:       "ocg/SelectorInvalid",
		Severity: Error,
		Summary:  "A Gateway's spec.mesh.selector is not a valid label selector.",
		Help:     "The selector that decides which routes are meshed does not parse as a Kubernetes label selector, so no route can be selected.",
		Fix:      "Fix the label selector.",
		Spec:     []Spec{gep3792("Solving the Discovery Problem")},
	})

	OCGMeshedRoute = register(&Rule{
		ID:       "ocg/MeshedRoute",
		Severity: Info,
		Summary:  "The Gateway must reach this route's backends over the mesh's mTLS.",
		Help:     "The route is attached to a Gateway with spec.mesh and matches its selector (by its own labels or its namespace's): the Gateway must connect to its backends over mTLS, offering the ALPN protocol ocg.gateway.networking.k8s.io/v1, and verify them against its trust bundle.",
		Fix:      "Make sure the mesh trusts the Gateway (a Mesh with spec.ocg.trustBundle naming the CA of the Gateway's client certificate).",
		Spec:     []Spec{gep3792("Solving the Protocol Problem"), gep3792("Solving the Discovery Problem")},
	})
)
