// Package probe replays real TLS handshakes against what the configuration
// promises: through a local proxy built from it (terminate or passthrough per
// listener), and against a live gateway address. It decides no routing itself:
// the serving table decides where each name goes and which certificate it is
// presented, and simulate's outcome is the prediction a handshake is judged by.
package probe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"time"
)

// ClientHello is what the proxy routes on: the server name and the ALPN protocols
// the client offers (RFC 8446 §4.1.2, RFC 6066 §3, RFC 7301 §3.1).
type ClientHello struct {
	ServerName string
	ALPN       []string
}

// MaxClientHello bounds how many bytes the proxy reads before it must have a whole
// ClientHello, record headers included. A ClientHello may span several records
// (RFC 8446 §5.1); crypto/tls refuses handshake messages over 64 KiB, and common
// clients send 0.5 to 2 KiB (one post-quantum key share is about 1.2 KiB).
const MaxClientHello = 64 << 10

const (
	recordTypeHandshake   = 22
	handshakeClientHello  = 1
	extServerName         = 0
	extALPN               = 16
	serverNameTypeHost    = 0
	recordHeaderLen       = 5
	handshakeHeaderLength = 4
	// maxPlaintext is the most a TLSPlaintext record may hold (RFC 8446 §5.1:
	// "The length MUST NOT exceed 2^14 bytes").
	maxPlaintext = 1 << 14
)

// ErrNotTLS is returned when the first bytes are not a TLS handshake record.
var ErrNotTLS = errors.New("not a TLS handshake (the first record is not a ClientHello)")

// PeekClientHello reads a ClientHello from c without losing it: it returns the
// bytes read, which the caller replays to whatever handles the connection next
// (inetaf/tcpproxy's peek-then-replay). It reads at most max bytes and gives up at
// the deadline, so a slow or oversized hello cannot hold the connection.
func PeekClientHello(c net.Conn, max int, deadline time.Time) (*ClientHello, []byte, error) {
	if max <= 0 || max > MaxClientHello {
		max = MaxClientHello
	}
	if err := c.SetReadDeadline(deadline); err != nil {
		return nil, nil, err
	}
	defer c.SetReadDeadline(time.Time{})
	a := &helloAssembler{max: max, raw: make([]byte, 0, 2048)}
	for {
		msg, err := a.message()
		if err != nil {
			return nil, a.raw, err
		}
		if msg != nil {
			h, err := parseClientHelloMessage(msg)
			return h, a.raw, err
		}
		if len(a.raw) == cap(a.raw) {
			grow := min(2*cap(a.raw), max)
			if grow <= len(a.raw) {
				return nil, a.raw, fmt.Errorf("ClientHello exceeds the limit of %d bytes", max)
			}
			nb := make([]byte, len(a.raw), grow)
			copy(nb, a.raw)
			a.raw = nb
		}
		n, err := c.Read(a.raw[len(a.raw):cap(a.raw)])
		a.raw = a.raw[:len(a.raw)+n]
		if err != nil && n == 0 {
			return nil, a.raw, fmt.Errorf("reading the ClientHello: %w", err)
		}
	}
}

// helloAssembler reassembles the first handshake message from the TLS records
// read so far (RFC 8446 §5.1: "Handshake messages MAY be fragmented across
// multiple TLSPlaintext records"). It consumes each record once, so a client
// that trickles tiny records costs linear work, and it gives up as soon as the
// records, or the length the message declares, exceed max bytes.
type helloAssembler struct {
	max int
	// raw is every byte read; off is where the first record not yet consumed
	// starts.
	raw []byte
	off int
	// msg is the handshake message's bytes so far, header included.
	msg []byte
}

// message is the whole handshake message once its records are in raw; nil
// while more bytes are needed.
func (a *helloAssembler) message() ([]byte, error) {
	for {
		if done, err := a.complete(); done || err != nil {
			return a.msg, err
		}
		rest := a.raw[a.off:]
		if len(rest) > 0 && rest[0] != recordTypeHandshake {
			if a.off == 0 {
				return nil, ErrNotTLS
			}
			// RFC 8446 §5.1: handshake messages MUST NOT be interleaved with
			// other record types.
			return nil, fmt.Errorf("malformed ClientHello: a record of type %d inside it (RFC 8446 §5.1)", rest[0])
		}
		if len(rest) < recordHeaderLen {
			return nil, nil
		}
		n := int(binary.BigEndian.Uint16(rest[3:5]))
		switch {
		case n == 0:
			// RFC 8446 §5.1: "Implementations MUST NOT send zero-length
			// fragments of Handshake types".
			return nil, errors.New("malformed ClientHello: an empty handshake record (RFC 8446 §5.1)")
		case n > maxPlaintext:
			return nil, fmt.Errorf("malformed ClientHello: a record of %d bytes, over the 2^14 of RFC 8446 §5.1", n)
		case a.off+recordHeaderLen+n > a.max:
			return nil, fmt.Errorf("ClientHello records exceed the limit of %d bytes", a.max)
		case len(rest) < recordHeaderLen+n:
			return nil, nil
		}
		a.msg = append(a.msg, rest[recordHeaderLen:recordHeaderLen+n]...)
		a.off += recordHeaderLen + n
	}
}

// complete reports whether msg holds the whole handshake message, cutting off
// what follows it in its last record (a client's next flight, such as early
// data, is not the router's business).
func (a *helloAssembler) complete() (bool, error) {
	if len(a.msg) < handshakeHeaderLength {
		return false, nil
	}
	if a.msg[0] != handshakeClientHello {
		return false, errors.New("malformed ClientHello: not a ClientHello")
	}
	n := handshakeHeaderLength + (int(a.msg[1])<<16 | int(a.msg[2])<<8 | int(a.msg[3]))
	if n > a.max {
		return false, fmt.Errorf("ClientHello of %d bytes exceeds the limit of %d", n, a.max)
	}
	if len(a.msg) < n {
		return false, nil
	}
	a.msg = a.msg[:n]
	return true, nil
}

// ParseClientHello parses a ClientHello from the TLS records that hold it, one
// or several (RFC 8446 §5.1). It never panics on any input
// (FuzzParseClientHello, FuzzClientHelloAcrossRecords).
func ParseClientHello(records []byte) (*ClientHello, error) {
	a := &helloAssembler{max: MaxClientHello, raw: records}
	msg, err := a.message()
	if err != nil {
		return nil, err
	}
	if msg == nil {
		if len(records) == 0 {
			return nil, ErrNotTLS
		}
		return nil, errors.New("malformed ClientHello: truncated")
	}
	return parseClientHelloMessage(msg)
}

// parseClientHelloMessage parses a whole ClientHello handshake message, its
// 4-byte header included (RFC 8446 §4.1.2).
func parseClientHelloMessage(msg []byte) (*ClientHello, error) {
	bad := func(what string) (*ClientHello, error) {
		return nil, fmt.Errorf("malformed ClientHello: %s", what)
	}
	r := reader(msg)
	typ, ok := r.u8()
	if !ok || typ != handshakeClientHello {
		return bad("not a ClientHello")
	}
	body, ok := r.vec(3)
	if !ok {
		return bad("handshake length")
	}
	// legacy_version, random, legacy_session_id, cipher_suites, legacy_compression_methods
	if _, ok := body.bytes(2 + 32); !ok {
		return bad("version and random")
	}
	for _, w := range []int{1, 2, 1} {
		if _, ok := body.vec(w); !ok {
			return bad("session id, cipher suites or compression methods")
		}
	}
	h := &ClientHello{}
	if len(body) == 0 {
		return h, nil // no extensions
	}
	exts, ok := body.vec(2)
	if !ok {
		return bad("extensions length")
	}
	for len(exts) > 0 {
		typ, ok1 := exts.u16()
		data, ok2 := exts.vec(2)
		if !ok1 || !ok2 {
			return bad("extension")
		}
		switch typ {
		case extServerName:
			list, ok := data.vec(2)
			if !ok {
				return bad("server_name")
			}
			for len(list) > 0 {
				nt, ok1 := list.u8()
				name, ok2 := list.vec(2)
				if !ok1 || !ok2 {
					return bad("server_name entry")
				}
				if nt == serverNameTypeHost && h.ServerName == "" {
					h.ServerName = string(name)
				}
			}
		case extALPN:
			list, ok := data.vec(2)
			if !ok {
				return bad("ALPN")
			}
			for len(list) > 0 {
				p, ok := list.vec(1)
				if !ok || len(p) == 0 {
					return bad("ALPN protocol")
				}
				h.ALPN = append(h.ALPN, string(p))
			}
		}
	}
	return h, nil
}

// reader consumes big-endian TLS wire encodings (RFC 8446 §3).
type reader []byte

func (r *reader) bytes(n int) (reader, bool) {
	if n < 0 || len(*r) < n {
		return nil, false
	}
	b := (*r)[:n]
	*r = (*r)[n:]
	return b, true
}

func (r *reader) u8() (byte, bool) {
	b, ok := r.bytes(1)
	if !ok {
		return 0, false
	}
	return b[0], true
}

func (r *reader) u16() (uint16, bool) {
	b, ok := r.bytes(2)
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint16(b), true
}

// vec reads a vector with a w-byte length prefix.
func (r *reader) vec(w int) (reader, bool) {
	lb, ok := r.bytes(w)
	if !ok {
		return nil, false
	}
	n := 0
	for _, b := range lb {
		n = n<<8 | int(b)
	}
	return r.bytes(n)
}
