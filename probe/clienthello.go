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
// ClientHello: a TLS record holds at most 2^14 bytes of plaintext (RFC 8446 §5.1), and
// a ClientHello larger than one record is refused.
const MaxClientHello = 5 + 1<<14

const (
	recordTypeHandshake   = 22
	handshakeClientHello  = 1
	extServerName         = 0
	extALPN               = 16
	serverNameTypeHost    = 0
	recordHeaderLen       = 5
	handshakeHeaderLength = 4
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
	buf := make([]byte, 0, 2048)
	for {
		need, err := helloLength(buf)
		if err != nil {
			return nil, buf, err
		}
		if need > max {
			return nil, buf, fmt.Errorf("ClientHello of %d bytes exceeds the limit of %d", need, max)
		}
		if need > 0 && len(buf) >= need {
			h, err := ParseClientHello(buf[:need])
			return h, buf, err
		}
		if len(buf) == cap(buf) {
			grow := min(2*cap(buf), max)
			if grow <= len(buf) {
				return nil, buf, fmt.Errorf("ClientHello exceeds the limit of %d bytes", max)
			}
			nb := make([]byte, len(buf), grow)
			copy(nb, buf)
			buf = nb
		}
		n, err := c.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil && n == 0 {
			return nil, buf, fmt.Errorf("reading the ClientHello: %w", err)
		}
	}
}

// helloLength is the length of the first TLS record once its header is in b (0
// while it is not). The ClientHello must fit in that one record.
func helloLength(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if b[0] != recordTypeHandshake {
		return 0, ErrNotTLS
	}
	if len(b) < recordHeaderLen {
		return 0, nil
	}
	return recordHeaderLen + int(binary.BigEndian.Uint16(b[3:5])), nil
}

// ParseClientHello parses one TLS record holding a whole ClientHello. It never
// panics on any input (FuzzParseClientHello).
func ParseClientHello(record []byte) (*ClientHello, error) {
	bad := func(what string) (*ClientHello, error) {
		return nil, fmt.Errorf("malformed ClientHello: %s", what)
	}
	if len(record) < recordHeaderLen || record[0] != recordTypeHandshake {
		return nil, ErrNotTLS
	}
	r := reader(record[recordHeaderLen:])
	if int(binary.BigEndian.Uint16(record[3:5])) != len(r) {
		return bad("record length")
	}
	typ, ok := r.u8()
	if !ok || typ != handshakeClientHello {
		return bad("not a ClientHello")
	}
	body, ok := r.vec(3)
	if !ok {
		return bad("handshake length (a ClientHello split over several records is not supported)")
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
