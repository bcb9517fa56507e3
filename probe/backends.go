package probe

import (
	"bufio"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"
)

// IdentPrefix starts the line every built-in backend answers with, so a client
// knows which backend and route its connection reached:
//
//	gwtls-backend NAMESPACE/NAME:PORT route=KIND/NAMESPACE/NAME [sni=SERVERNAME]
//
// sni is the server name the backend received when it terminates TLS itself
// (passthrough) or is re-encrypted to (BackendTLSPolicy hostname).
const IdentPrefix = "gwtls-backend"

// BackendKey names a backendRef the way --backend does: NAMESPACE/NAME:PORT.
func BackendKey(namespace, name string, port int32) string {
	return fmt.Sprintf("%s/%s:%d", namespace, name, port)
}

// Identification is a parsed built-in backend's answer.
type Identification struct {
	Backend string `json:"backend"`
	Route   string `json:"route"`
	SNI     string `json:"sni,omitempty"`
}

// ParseIdentification finds a built-in backend's line in a response (a raw line or
// the body of an HTTP response).
func ParseIdentification(resp string) (*Identification, bool) {
	for line := range strings.Lines(resp) {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != IdentPrefix {
			continue
		}
		id := &Identification{Backend: f[1]}
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "route":
				id.Route = v
			case "sni":
				id.SNI = v
			}
		}
		return id, true
	}
	return nil, false
}

// BackendCA signs the certificates of built-in TLS backends. A test can put the
// same CA in a BackendTLSPolicy's CA ConfigMap (Options.BackendCA), so the proxy's
// re-encryption verifies exactly as the policy says.
type BackendCA struct {
	Cert *x509.Certificate
	Key  crypto.Signer
}

// NewBackendCA generates a CA for built-in backends.
func NewBackendCA() (*BackendCA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serialNumber(),
		Subject:               pkix.Name{CommonName: "gwtls probe backend CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &BackendCA{Cert: cert, Key: key}, nil
}

// BackendCAFromKeyPair uses a CA certificate and key the user gives.
func BackendCAFromKeyPair(pair tls.Certificate) (*BackendCA, error) {
	if len(pair.Certificate) == 0 {
		return nil, errors.New("no certificate")
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, err
	}
	key, ok := pair.PrivateKey.(crypto.Signer)
	if !ok || !cert.IsCA {
		return nil, errors.New("the certificate is not a CA with a signing key")
	}
	return &BackendCA{Cert: cert, Key: key}, nil
}

func serialNumber() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}

// Issue makes a server certificate for names, served with the CA as its chain's root.
func (ca *BackendCA) Issue(names []string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	cn := "gwtls probe backend"
	if len(names) > 0 {
		cn = names[0]
	}
	tmpl := &x509.Certificate{
		SerialNumber: serialNumber(),
		Subject:      pkix.Name{CommonName: cn},
		DNSNames:     names,
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, key.Public(), ca.Key)
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der, ca.Cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}

// builtinBackend stands in for one backendRef of one route: it answers every
// connection with its identification, over TLS when the configuration expects the
// backend to speak TLS (passthrough, or a BackendTLSPolicy). It serves at most
// Options.MaxBackendConns connections at a time, whoever connects: it listens
// where the proxy does.
type builtinBackend struct {
	acc     *acceptor
	ident   string
	tls     *tls.Config // nil: plain TCP
	timeout timeouts
}

// timeouts are the proxy's deadlines: the handshake's, and the whole
// connection's.
type timeouts struct {
	handshake, conn time.Duration
}

func startBuiltin(listenAddress, ident string, cfg *tls.Config, t timeouts, limit int, log *warnings) (*builtinBackend, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(listenAddress, "0"))
	if err != nil {
		return nil, fmt.Errorf("built-in backend %s: %w", ident, err)
	}
	b := &builtinBackend{ident: ident, tls: cfg, timeout: t}
	b.acc = newAcceptor(ln, "built-in backend "+strings.TrimPrefix(ident, IdentPrefix+" ")+" on "+ln.Addr().String(), limit, log, b.answer)
	return b, nil
}

func (b *builtinBackend) addr() string { return b.acc.ln.Addr().String() }

func (b *builtinBackend) close() { b.acc.close() }

// answer writes the identification: as an HTTP response when the client speaks
// HTTP/1 (curl, the replay client), else as a raw line (openssl s_client with no
// input, a TLSRoute client). It waits briefly for a request so both work.
func (b *builtinBackend) answer(c net.Conn) {
	// A closure: c becomes the TLS connection, whose Close sends close_notify.
	defer func() { c.Close() }()
	line := b.ident
	if b.tls != nil {
		c.SetDeadline(time.Now().Add(b.timeout.handshake))
		tc := tls.Server(c, b.tls)
		if err := tc.Handshake(); err != nil {
			return
		}
		line += " sni=" + tc.ConnectionState().ServerName
		c = tc
	}
	line += "\n"
	c.SetDeadline(time.Now().Add(b.timeout.conn))
	c.SetReadDeadline(time.Now().Add(min(b.timeout.conn, time.Second)))
	r := bufio.NewReaderSize(c, 4096)
	first, err := r.ReadString('\n')
	if err == nil && strings.Contains(first, " HTTP/1.") {
		for {
			h, err := r.ReadString('\n')
			if err != nil || strings.TrimSpace(h) == "" {
				break
			}
		}
		c.SetDeadline(time.Now().Add(b.timeout.conn))
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(line), line)
		return
	}
	c.SetDeadline(time.Now().Add(b.timeout.conn))
	fmt.Fprint(c, line)
}
