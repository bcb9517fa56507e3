package annotations

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// valueProblem is what a type check finds: the message and fix of an
// annotation/invalid-value problem, before the key and value are known, and
// its severity (a warning for a spelling the implementation may accept).
type valueProblem struct {
	severity     rules.Severity
	message, fix string
}

func errorf(fix, format string, args ...any) valueProblem {
	return valueProblem{rules.Error, fmt.Sprintf(format, args...), fix}
}

// checkValue checks v against the documented type of k. Messages start
// after "KEY: ".
func checkValue(k *Key, v string) []valueProblem {
	switch k.Type {
	case TypeInteger:
		return checkInteger(k, v)
	case TypeDuration:
		return checkDuration(k, v)
	case TypeBoolean:
		return checkBoolean(v)
	case TypeEnum:
		return checkEnum(k, v)
	case TypePEMCertificates:
		return checkPEMCertificates(v)
	case TypeHostname:
		return checkHostname(k, v)
	case TypeToken:
		return checkToken(v)
	}
	return nil
}

func rangeText(k *Key) string {
	switch {
	case k.Min != nil && k.Max != nil:
		return fmt.Sprintf("from %d to %d", *k.Min, *k.Max)
	case k.Min != nil:
		return fmt.Sprintf("%d or more", *k.Min)
	case k.Max != nil:
		return fmt.Sprintf("%d or less", *k.Max)
	}
	return "a whole number"
}

func checkInteger(k *Key, v string) []valueProblem {
	fix := "use a whole number " + rangeText(k) + `, quoted as a string, e.g. "` + exampleOr(k, "1") + `"`
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if _, ferr := strconv.ParseFloat(v, 64); ferr == nil && !errors.Is(err, strconv.ErrRange) {
			return []valueProblem{errorf(fix, "%s is not a whole number", quoteValue(v))}
		}
		if errors.Is(err, strconv.ErrRange) {
			return []valueProblem{errorf(fix, "%s is out of range: expected %s", quoteValue(v), rangeText(k))}
		}
		return []valueProblem{errorf(fix, "%s is not a number", quoteValue(v))}
	}
	if (k.Min != nil && n < *k.Min) || (k.Max != nil && n > *k.Max) {
		return []valueProblem{errorf(fix, "%d is out of range: expected %s", n, rangeText(k))}
	}
	return nil
}

func exampleOr(k *Key, fallback string) string {
	if k.Example != "" {
		return k.Example
	}
	return fallback
}

// checkDuration follows the reference's examples (5s, 10s, 3600s): Go
// duration syntax, as Kubernetes uses for metav1.Duration.
func checkDuration(k *Key, v string) []valueProblem {
	fix := "use Go/Kubernetes duration syntax such as 5s, 1m30s or 3600s"
	d, err := time.ParseDuration(v)
	if err != nil {
		if _, nerr := strconv.ParseFloat(v, 64); nerr == nil {
			return []valueProblem{errorf(fix, "%s has no unit; a duration needs one, e.g. %ss", quoteValue(v), cut(v, maxValueLen))}
		}
		return []valueProblem{errorf(fix, "%s is not a duration; %s", quoteValue(v), fix)}
	}
	if d < 0 {
		return []valueProblem{errorf("use a positive duration such as "+exampleOr(k, "5s"), "%s is negative", quoteValue(v))}
	}
	if d == 0 && k.Positive {
		return []valueProblem{errorf("use a positive duration such as "+exampleOr(k, "5s"), "%s is zero; it must be longer than 0", quoteValue(v))}
	}
	return nil
}

// checkBoolean accepts "true" and "false", the values the reference shows.
// Other spellings that Go's strconv.ParseBool accepts ("True", "1", "t")
// are warnings: the implementation may or may not accept them.
func checkBoolean(v string) []valueProblem {
	switch v {
	case "true", "false":
		return nil
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return []valueProblem{{rules.Warning,
			fmt.Sprintf("%s is not one of the documented boolean values \"true\" and \"false\"", quoteValue(v)),
			fmt.Sprintf("write %q", strconv.FormatBool(b))}}
	}
	return []valueProblem{errorf(`use "true" or "false"`, "%s is not a boolean; expected \"true\" or \"false\"", quoteValue(v))}
}

// checkEnum compares case-sensitively: the reference lists the values in
// one spelling only.
func checkEnum(k *Key, v string) []valueProblem {
	for _, allowed := range k.Values {
		if v == allowed || k.IgnoreCase && strings.EqualFold(v, allowed) {
			return nil
		}
	}
	list := strings.Join(k.Values, ", ")
	best, d := suggest.Closest(v, k.Values)
	if strings.EqualFold(v, best) {
		return []valueProblem{errorf("write "+best+" (values are case-sensitive)", "%s is not a valid value; did you mean %s? Allowed: %s", quoteValue(v), best, list)}
	}
	if best != "" && d <= len(best)/3+1 {
		return []valueProblem{errorf("use one of "+list, "%s is not a valid value; did you mean %s? Allowed: %s", quoteValue(v), best, list)}
	}
	return []valueProblem{errorf("use one of "+list, "%s is not a valid value; allowed: %s", quoteValue(v), list)}
}

// checkPEMCertificates needs at least one CERTIFICATE block that
// crypto/x509 parses. Blocks are named by number, never quoted.
func checkPEMCertificates(v string) []valueProblem {
	const fix = "paste the CA certificate(s) as PEM CERTIFICATE blocks, e.g. the ca.crt of the issuing CA"
	if strings.TrimSpace(v) == "" {
		return []valueProblem{errorf(fix, "is empty; expected PEM-encoded X.509 certificates")}
	}
	var out []valueProblem
	rest := []byte(v)
	blocks, certs := 0, 0
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		blocks++
		switch {
		case b.Type == "CERTIFICATE":
			if _, err := x509.ParseCertificate(b.Bytes); err != nil {
				out = append(out, errorf("replace PEM block "+strconv.Itoa(blocks)+" with the certificate as issued", "PEM block %d does not parse as an X.509 certificate", blocks))
				continue
			}
			certs++
		case strings.Contains(b.Type, "PRIVATE KEY"):
			out = append(out, errorf("remove PEM block "+strconv.Itoa(blocks)+" and rotate the key: annotations are readable by anyone who can read the route",
				"PEM block %d is a private key, not a certificate", blocks))
		default:
			out = append(out, valueProblem{rules.Warning,
				fmt.Sprintf("PEM block %d is of type %s, not CERTIFICATE; it is not a trusted CA", blocks, quoteValue(b.Type)),
				"remove PEM block " + strconv.Itoa(blocks)})
		}
	}
	switch {
	case blocks == 0:
		out = append(out, errorf(fix, "contains no PEM block; expected PEM-encoded X.509 certificates"))
	case certs == 0:
		out = append(out, errorf(fix, "contains no parseable certificate in %d PEM block(s)", blocks))
	}
	return out
}

// checkHostname requires a precise hostname, as an SNI is (spec 003 "SNI
// matching"); the empty value is allowed where the reference gives it a
// meaning (Backend TLS configuration: `tls.sni: ""` is TLS without SNI).
func checkHostname(k *Key, v string) []valueProblem {
	if v == "" && k.AllowEmpty {
		return nil
	}
	err := hostname.ValidatePrecise(v)
	if err == nil {
		return nil
	}
	fix := "use the DNS name the backend's certificate is issued for, e.g. " + exampleOr(k, "backend.example.com")
	if k.AllowEmpty {
		fix += `, or "" for TLS without SNI and without certificate verification`
	}
	reason := "is not a valid hostname"
	var verr *hostname.ValidationError
	if errors.As(err, &verr) {
		// The hostname package's advice after "; " speaks of Gateway API
		// fields; the first clause is the reason.
		reason, _, _ = strings.Cut(verr.Reason, "; ")
		reason = cut(reason, 120)
	}
	return []valueProblem{errorf(fix, "%s is not a valid SNI: it %s", quoteValue(v), reason)}
}

// checkToken checks the RFC 9110 section 5.6.2 token syntax that header
// names and RFC 6265 cookie names share.
func checkToken(v string) []valueProblem {
	const fix = "use letters, digits and !#$%&'*+-.^_`|~ only, e.g. X-Session-ID"
	if v == "" {
		return []valueProblem{errorf(fix, "is empty; expected a header or cookie name")}
	}
	for _, r := range v {
		if !isTokenChar(r) {
			return []valueProblem{errorf(fix, "%s is not a valid header or cookie name: %s is not allowed", quoteValue(v), strconv.QuoteRune(r))}
		}
	}
	return nil
}

func isTokenChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return r < 0x80 && strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}
