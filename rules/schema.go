package rules

// Rules about what the API server admits: a Gateway API object is stored only
// if it satisfies the OpenAPI v3 schema and the x-kubernetes-validations (CEL)
// rules of the CustomResourceDefinition that serves its apiVersion, which is
// what `kubectl apply` meets before any controller sees the object.

var (
	SchemaInvalid = register(&Rule{
		ID:       "schema/Invalid",
		Severity: Error,
		Summary:  "The API server refuses the object: it does not satisfy its CRD's schema or validation rules.",
		Help: "The object was validated as a kube-apiserver serving the Gateway API CRDs validates a create with kubectl's default " +
			"--validate=strict: the CRD's OpenAPI v3 schema (types, required fields, patterns, enums, lengths, list keys), its " +
			"x-kubernetes-validations CEL rules, ObjectMeta, and unknown or duplicate fields. The API server refuses it with the " +
			"field path and message shown, so `kubectl apply` fails and no controller ever sees it: the analysis leaves it out, and " +
			"every object that refers to it says so. An object read from a cluster was stored under the CRDs of its day; one the " +
			"installed CRDs refuse now exists all the same and is analyzed, and this rule warns that creating it again, or an " +
			"update that touches the offending field, fails.",
		Fix: "Correct the field the API server names, as its message says; `kubectl apply --dry-run=server` asks a cluster the same question.",
		Spec: []Spec{
			{Document: "Gateway API v1.6 CRDs (sigs.k8s.io/gateway-api config/crd)", Section: "the OpenAPI v3 schema and x-kubernetes-validations of the CRD that serves the object's apiVersion"},
			{Document: "Kubernetes: Extend the Kubernetes API with CustomResourceDefinitions", Section: "Validation; Validation rules; Defaulting; Field pruning"},
		},
	})

	SchemaExperimentalOnly = register(&Rule{
		ID:       "schema/ExperimentalOnly",
		Severity: Warning,
		Summary:  "Only a cluster with the experimental channel's CRDs admits the object.",
		Help: "The object uses a field or an API version that only the Gateway API's experimental release channel serves. It was " +
			"admitted against the experimental channel's CRDs, but a cluster that installed the standard channel's CRDs of the " +
			"same release refuses it, for the reason shown.",
		Fix: "Install the experimental channel's CRDs where this is applied, or use only what the standard channel serves (the finding says which field or version it does not).",
		Spec: []Spec{
			{Document: "Gateway API versioning", Section: "Release channels: standard and experimental"},
			{Document: "Gateway API v1.6 CRDs (sigs.k8s.io/gateway-api config/crd)", Section: "config/crd/standard and config/crd/experimental"},
		},
	})
)
