package rules

// Migration rules: an Ingress configuration (the base of `diff`, package
// ingress) against the Gateway API configuration meant to replace it (the
// head): for every request an Ingress path is served with, whether the Gateway
// API configuration serves it the same way. Each cites both specifications,
// and the Ingress controller's documentation where the behaviour is its own.

// ingressAPI cites the Ingress API, whose doc comments state its rules.
func ingressAPI(section string) Spec {
	return Spec{Document: "Kubernetes Ingress v1 (k8s.io/api networking/v1)", Section: section}
}

// ingressNginx and nginxIngress cite the Ingress controllers' documentation,
// which the annotation sets (annotations/sets) hold entry by entry.
func ingressNginx(section string) Spec {
	return Spec{Document: "ingress-nginx documentation (kubernetes.github.io/ingress-nginx)", Section: section}
}

func nginxIngress(section string) Spec {
	return Spec{Document: "NGINX Ingress Controller documentation (docs.nginx.com/nginx-ingress-controller)", Section: section}
}

func migration(id string, sev Severity, summary, help, fix string, spec ...Spec) *Rule {
	return register(&Rule{ID: ID("migration/" + id), Severity: sev, Summary: summary, Help: help, Fix: fix, Spec: spec})
}

var (
	MigrationHostNotServed = migration("HostNotServed", Error,
		"A host an Ingress serves is not served by the Gateway API configuration on that port.",
		"The Ingress controller serves the host on the port (80 and 443, or its listen-ports), but no listener of any Gateway on that port takes the name, or no route attached to the listener that takes it has a matching hostname: clients get a refused connection, a TLS alert or HTTP 404 where they got the backend. A Gateway API listener matches a wildcard over one or more labels, an Ingress rule over one label, so a wildcard host is served when the listener and route hostnames cover it.",
		"Add a listener on the port whose hostname matches the host (or none), and attach an HTTPRoute (a TLSRoute for passthrough) with the host in spec.hostnames.",
		ingressAPI("IngressRule.Host (precise, or a wildcard of one label); the ports are implicitly 80 for http and 443 for https"),
		gatewayAPI("gateway_types.go: Listener.Hostname, Listener.Port; httproute_types.go: HTTPRouteSpec.Hostnames"),
		hostnames("Hostname matching for routes"))

	MigrationPathNotServed = migration("PathNotServed", Error,
		"A request an Ingress path serves is refused or unmatched by the Gateway API configuration.",
		"The Ingress path takes the request (an Exact path equal to it, a Prefix path that is a prefix of it element by element), but the routes that take its host on the Gateway have no rule whose matches take it (HTTP 404), or the rule's backends do not resolve, or the listener has no usable certificate. When the Gateway redirects the request to HTTPS, the redirected request is what is compared.",
		"Add a rule to the HTTPRoute with a path match that takes the request (Exact for an Exact path, PathPrefix for a Prefix path) and the backendRef of the Ingress path's backend.",
		ingressAPI("HTTPIngressPath.PathType (Exact, Prefix: element-wise, ImplementationSpecific)"),
		gatewayAPI("httproute_types.go: HTTPRouteRule.Matches (a rule without matches takes every request; no matching rule is HTTP 404), HTTPPathMatch"))

	MigrationPathMatchNarrowed = migration("PathMatchNarrowed", Info,
		"A request only the Ingress controller's own path matching took is not served by the Gateway.",
		"The Ingress controller matches the path more widely than the Ingress specification says: an nginx prefix location (a Prefix or ImplementationSpecific path rendered as `location /tea`) also takes /teapot, and a regular expression anchored only at its start (use-regex, rewrite-target, path-regex) takes every path beneath what it matches. Gateway API's PathPrefix matches whole path elements and a RegularExpression is implementation-specific, so such requests may now get HTTP 404. The Ingress's paths, as its specification defines them, are served: this is a note, not a regression. Clients rarely depend on such requests; check the access logs for requests like the sample.",
		"If clients send such requests, add a rule that takes them (a PathPrefix for a path beneath, a RegularExpression if the implementation supports one); otherwise nothing.",
		ingressAPI("PathTypePrefix (/foo/bar does not match /foo/barbaz); PathTypeImplementationSpecific"),
		ingressNginx("Ingress Path Matching > Regular Expression Support"),
		nginxIngress("Basic configuration > New features available in Kubernetes 1.18 (ImplementationSpecific is the same as Prefix)"),
		gatewayAPI("httproute_types.go: HTTPPathMatch (PathPrefix is element-wise; RegularExpression support is implementation-specific)"))

	MigrationPathMatchUnverified = migration("PathMatchUnverified", Warning,
		"A request is served by the Gateway only through a RegularExpression path match, whose meaning depends on the implementation.",
		"The Gateway API rule that takes the request matches its path with a RegularExpression: the syntax, the anchoring and the precedence of regular expressions are implementation-specific, and some implementations do not support them at all (ingress2gateway warns that NGINX Gateway Fabric does not). This tool reads the expression as RE2 matched against the whole path; the implementation may not.",
		"Check that the implementation supports RegularExpression path matches and reads the expression as the Ingress controller did; prefer Exact and PathPrefix matches where they say the same.",
		gatewayAPI("httproute_types.go: HTTPPathMatch.Type RegularExpression (Support: Implementation-specific), HTTPRouteRule.Matches (precedence of RegularExpression matches is implementation-specific)"),
		ingressNginx("Annotations > Use Regex"),
		nginxIngress("Annotations > General customization (nginx.org/path-regex)"))

	MigrationBackendChanged = migration("BackendChanged", Error,
		"A request is forwarded to another backend Service or port than the Ingress sends it to.",
		"The Gateway API rule that takes the request forwards it to other backends than the Ingress path does: another Service, another port, or another split between a main backend and a canary. A named Service port of the Ingress is compared through the Service's ports when the input holds the Service.",
		"Set the rule's backendRefs to the Ingress path's Service and port (a canary by weight is a second backendRef with its weight).",
		ingressAPI("IngressBackend.Service (name, and port by number or name)"),
		gatewayAPI("httproute_types.go: HTTPRouteRule.BackendRefs, HTTPBackendRef (weight)"),
		ingressNginx("Annotations > Canary"))

	MigrationBackendProtocolChanged = migration("BackendProtocolChanged", Error,
		"The Gateway speaks another HTTP version to a backend than the Ingress: gRPC's HTTP/2, or HTTP/1.1.",
		"The Ingress controller speaks gRPC, which is HTTP/2, to the backend (ingress-nginx's backend-protocol GRPC or GRPCS, NGINX Ingress Controller's grpc-services), and the Gateway HTTP/1.1, or the other way round: a backend that speaks only one of them refuses the other, and clients get HTTP 502. The Gateway speaks HTTP/2 to a Service port whose appProtocol is kubernetes.io/h2c (KEP-3726), and to a GRPCRoute's backends when the port has no appProtocol (implementations may infer the protocol from the route type); it speaks HTTP/1.1 to an HTTPRoute's backends otherwise. TLS to the backend (GRPCS) is compared apart, as migration/BackendTLSLost.",
		"Serve gRPC paths with a GRPCRoute (method matches for the Ingress's /service/method paths), or set appProtocol: kubernetes.io/h2c on the Service port; serve HTTP/1.1 paths with an HTTPRoute to a port without it.",
		ingressNginx("Annotations > Backend Protocol"),
		nginxIngress("Annotations > Backend services (Upstreams) (grpc-services)"),
		gatewayAPI("grpcroute_types.go: GRPCBackendRef, httproute_types.go: HTTPBackendRef (appProtocol: implementations SHOULD honor it, MAY infer the protocol from the Route type)"))

	MigrationCanaryUnverified = migration("CanaryUnverified", Warning,
		"A canary takes requests by a header pattern the comparison cannot send, so where they go is not compared.",
		"The canary Ingress sends requests whose canary-by-header matches a PCRE (canary-by-header-pattern, without canary-by-header-value) to its backend. No request built from the annotations is known to match a regular expression, so these requests are not asked of the Gateway; Gateway API's RegularExpression header match is implementation-specific, and a rule with one is satisfied by no request this tool asks. Requests with other header values fall through to the canary's weight, and are compared.",
		"Check by hand that the Gateway sends requests whose header matches the pattern to the canary's backend: a rule with a RegularExpression header match where the implementation supports one, or an Exact match per value clients send.",
		ingressNginx("Annotations > Canary (canary-by-header-pattern)"),
		gatewayAPI("httproute_types.go: HTTPHeaderMatch.Type RegularExpression (Support: Implementation-specific)"))

	MigrationRedirectLost = migration("RedirectLost", Error,
		"The Ingress redirects plain HTTP to HTTPS for a path; the Gateway serves it over plain HTTP.",
		"The Ingress controller answers the plain HTTP request with a redirect to HTTPS (ingress-nginx's ssl-redirect, on by default for a host with TLS, or force-ssl-redirect; NGINX Ingress Controller's ssl-redirect, redirect-to-https), but the Gateway's HTTP listener forwards it to the backend: clients stay on plain HTTP, and cookies and credentials they send go unencrypted.",
		"Attach an HTTPRoute to the HTTP listener (parentRefs sectionName) whose rule has a RequestRedirect filter with scheme: https (and statusCode 301 or 308, as the controller sent), and attach the route with the backends to the HTTPS listener only.",
		gatewayAPI("httproute_types.go: HTTPRequestRedirectFilter (scheme, statusCode)"),
		ingressNginx("Annotations > Server-side HTTPS enforcement through redirect"),
		nginxIngress("Annotations > Auth and SSL/TLS (ssl-redirect, redirect-to-https)"))

	MigrationRedirectChanged = migration("RedirectChanged", Warning,
		"The Ingress and the Gateway redirect a plain HTTP request differently.",
		"Both answer the request with a redirect to HTTPS, but not the same one: another status code (301 and 302 let clients change a POST into a GET, 307 and 308 do not), or the Ingress redirects only requests whose X-Forwarded-Proto is http (NGINX Ingress Controller's redirect-to-https, for TLS terminated by a load balancer in front) while the Gateway redirects every one, which loops behind a load balancer that forwards decrypted requests over HTTP.",
		"Set the RequestRedirect filter's statusCode to the controller's; behind a load balancer that terminates TLS, match the redirect rule on the X-Forwarded-Proto header (headers: [{name: X-Forwarded-Proto, value: http}]).",
		gatewayAPI("httproute_types.go: HTTPRequestRedirectFilter.StatusCode, HTTPHeaderMatch"),
		nginxIngress("Annotations > Auth and SSL/TLS (redirect-to-https: based on the http_x_forwarded_proto header)"),
		ingressNginx("Annotations > Server-side HTTPS enforcement through redirect (308)"))

	MigrationRedirectAdded = migration("RedirectAdded", Warning,
		"The Gateway redirects a plain HTTP request to HTTPS that the Ingress served.",
		"The Ingress serves the request over plain HTTP, and the Gateway's HTTP listener answers it with a redirect to HTTPS. Browsers follow it; other clients (health checks, webhooks, API clients that do not follow redirects, POSTs after a 301 or 302) may not. The redirected request is compared as well.",
		"Keep the redirect if plain HTTP should end; otherwise attach the route with the backends to the HTTP listener instead of the redirect.",
		gatewayAPI("httproute_types.go: HTTPRequestRedirectFilter"),
		ingressAPI("IngressRule.Host (served on 80 for http)"))

	MigrationBackendTLSLost = migration("BackendTLSLost", Error,
		"The Ingress speaks TLS to a backend; the Gateway speaks plain text to it.",
		"The Ingress controller connects to the backend with TLS (ingress-nginx's backend-protocol HTTPS or GRPCS, NGINX Ingress Controller's ssl-services), but no accepted BackendTLSPolicy applies to the Service port on the Gateway side, so the Gateway connects without TLS: the backend refuses the connection or answers with a TLS error.",
		"Add a BackendTLSPolicy for the Service (and port, by sectionName) with validation.hostname the backend's certificate is issued for and its CA (caCertificateRefs or wellKnownCACertificates).",
		gep1897("API"), gatewayAPI("backendtlspolicy_types.go: BackendTLSPolicySpec"),
		ingressNginx("Annotations > Backend Protocol"),
		nginxIngress("Annotations > Backend services (Upstreams) (nginx.org/ssl-services)"))

	MigrationBackendTLSAdded = migration("BackendTLSAdded", Error,
		"The Gateway speaks TLS to a backend the Ingress speaks plain text to.",
		"A BackendTLSPolicy applies to the backend on the Gateway side, so the Gateway connects with TLS, but the Ingress controller connects without it: a backend that serves plain HTTP fails every handshake.",
		"Remove the BackendTLSPolicy, or check that the backend now serves TLS.",
		gep1897("API"), ingressNginx("Annotations > Backend Protocol (HTTP by default)"))

	MigrationBackendTLSChanged = migration("BackendTLSChanged", Warning,
		"The Gateway verifies a TLS backend differently from the Ingress.",
		"Both speak TLS to the backend, but the BackendTLSPolicy verifies it (it always does: hostname and a CA) where the Ingress controller did not (ingress-nginx's proxy-ssl-verify is off by default; NGINX Ingress Controller's ssl-services does not verify), or against another hostname. A backend whose certificate does not pass the policy's validation now fails every request.",
		"Check that the backend's certificate is issued for the policy's validation.hostname by the CA it names; if the Ingress verified it, use the same hostname (proxy-ssl-name) and CA (proxy-ssl-secret's ca.crt).",
		gep1897("API"), ingressNginx("Annotations > Backend Certificate Authentication"))

	MigrationPassthroughLost = migration("PassthroughLost", Error,
		"The Ingress passes a host's TLS connections through to the backend; the Gateway does not.",
		"The Ingress controller sends the host's TLS connections to the backend undecrypted (ingress-nginx's ssl-passthrough), but the Gateway terminates TLS for the host (an HTTPS listener), or has no TLS listener that takes it: the backend now receives decrypted HTTP or nothing, and clients see the Gateway's certificate instead of the backend's.",
		"Add a listener with protocol TLS and tls.mode Passthrough on the port, and attach a TLSRoute with the host and the backend.",
		gep2643("Passthrough"), gatewayAPI("gateway_types.go: TLSModeType (Passthrough)"),
		ingressNginx("Annotations > SSL Passthrough"))

	MigrationCertificateNotCovering = migration("CertificateNotCovering", Error,
		"The certificate the Gateway presents for a host does not cover it.",
		"The Gateway's listener presents a certificate without a DNS name matching the host (a wildcard covers exactly one label), where the Ingress's certificate covered it: TLS clients reject the handshake.",
		"Reference a Secret whose certificate covers the host on the listener (the Ingress's spec.tls Secret, or a new one), or reissue the certificate with the host.",
		hostnames("SNI matching"), rfc("6125", "section 6.4.3"),
		ingressAPI("IngressTLS (hosts, secretName)"))

	MigrationCertificateChanged = migration("CertificateChanged", Info,
		"The Gateway presents another certificate for a host than the Ingress does.",
		"The listener's certificate is from another Secret than the Ingress's spec.tls entry for the host, or another certificate by SHA-256. It covers the host; clients that pin the certificate or its key notice.",
		"Nothing, if the certificate is meant to change; otherwise reference the Ingress's Secret.",
		ingressAPI("IngressTLS.SecretName"), gatewayAPI("gateway_types.go: ListenerTLSConfig.CertificateRefs"))

	MigrationRewriteChanged = migration("RewriteChanged", Warning,
		"The backend receives another path than the Ingress sends it.",
		"The Ingress rewrites the request's path before forwarding it (ingress-nginx's rewrite-target, NGINX Ingress Controller's rewrites and rewrite-target), and the Gateway rule's URLRewrite filter rewrites it to something else, or not at all (or rewrites a path the Ingress did not): the backend receives a path it may not serve.",
		"Add a URLRewrite filter to the rule: ReplacePrefixMatch with the rewritten prefix for a prefix rewrite, ReplaceFullPath for a fixed path.",
		gatewayAPI("httproute_types.go: HTTPURLRewriteFilter, HTTPPathModifier (ReplacePrefixMatch, ReplaceFullPath)"),
		ingressNginx("Annotations > Rewrite"), nginxIngress("Annotations > Request URI/Header Manipulation (nginx.org/rewrites)"))

	MigrationIngressNotServed = migration("IngressNotServed", Warning,
		"An Ingress of the base is not served by its controller, so nothing of it is compared.",
		"The Ingress controller does not serve the Ingress: it rejects an annotation value (NGINX Ingress Controller rejects the whole Ingress), another Ingress holds its host, it is a canary of no main Ingress, or its class names no controller this tool models. The Gateway API configuration may serve what the Ingress was meant to serve, but the migration cannot be compared with what clients got.",
		"Fix the Ingress or drop it from the base; for another controller's class, compare it with that controller's behaviour by hand.",
		ingressAPI("IngressSpec.IngressClassName, IngressClass"),
		nginxIngress("Advanced configuration with Annotations > Validation"),
		nginxIngress("Host and Listener collisions"))
)
