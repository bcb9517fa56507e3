package rules

// The documents rules cite. The reference documents (../shared/spec) are named
// by their file there; the Gateway API by the file and doc comment in
// sigs.k8s.io/gateway-api apis/v1 that states the rule.

func gatewayAPI(section string) Spec {
	return Spec{Document: "Gateway API v1.6 (sigs.k8s.io/gateway-api apis/v1)", Section: section}
}

func gep2643(section string) Spec {
	return Spec{Document: "GEP-2643 TLSRoute", Section: section, File: "000_e099d25df0821912.txt"}
}

func gwin(section string) Spec {
	return Spec{Document: "Gwin TLSRoute reference", Section: section, File: "001_ed064400a18757f2.txt"}
}

func gep1713(section string) Spec {
	return Spec{Document: "GEP-1713 ListenerSets", Section: section}
}

func gep3792(section string) Spec {
	return Spec{Document: "GEP-3792 Out-of-Cluster Gateways (provisional)", Section: section, File: "002_cc64bfdfb5eb6a8b.txt"}
}

func hostnames(section string) Spec {
	return Spec{Document: "Hostnames in Gateway API", Section: section, File: "003_0c8e0c2799842bee.txt"}
}

func gep1897(section string) Spec {
	return Spec{Document: "GEP-1897 BackendTLSPolicy", Section: section, File: "004_a187aee97b1f2c77.txt"}
}

func rfc(number, section string) Spec {
	return Spec{Document: "RFC " + number, Section: section}
}

func baselineRequirements(section string) Spec {
	return Spec{Document: "CA/Browser Forum Baseline Requirements", Section: section}
}
