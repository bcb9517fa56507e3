package probe_test

import (
	"bytes"
	"crypto/tls"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// clientHello captures the first record a crypto/tls client sends.
func clientHello(t testing.TB, cfg *tls.Config) []byte {
	t.Helper()
	client, server := net.Pipe()
	defer server.Close()
	go func() {
		tls.Client(client, cfg).Handshake()
		client.Close()
	}()
	server.SetDeadline(time.Now().Add(5 * time.Second))
	_, raw, err := probe.PeekClientHello(server, 0, time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestPeekClientHello(t *testing.T) {
	cases := []struct {
		name string
		cfg  *tls.Config
		want probe.ClientHello
	}{
		{"SNI and ALPN", &tls.Config{ServerName: "shop.example.com", NextProtos: []string{"h2", "http/1.1"}}, probe.ClientHello{ServerName: "shop.example.com", ALPN: []string{"h2", "http/1.1"}}},
		{"the OCG ALPN", &tls.Config{ServerName: "svc.mesh", NextProtos: []string{"ocg.gateway.networking.k8s.io/v1"}}, probe.ClientHello{ServerName: "svc.mesh", ALPN: []string{"ocg.gateway.networking.k8s.io/v1"}}},
		{"no SNI (an IP address is never sent as SNI, RFC 6066 §3)", &tls.Config{ServerName: "127.0.0.1", InsecureSkipVerify: true}, probe.ClientHello{}},
		{"TLS 1.2 only", &tls.Config{ServerName: "old.example.com", MaxVersion: tls.VersionTLS12}, probe.ClientHello{ServerName: "old.example.com"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := clientHello(t, c.cfg)
			h, err := probe.ParseClientHello(raw)
			if err != nil {
				t.Fatal(err)
			}
			if h.ServerName != c.want.ServerName || !slices.Equal(h.ALPN, c.want.ALPN) {
				t.Errorf("got %+v, want %+v", h, c.want)
			}
		})
	}
}

func TestParseClientHelloRejects(t *testing.T) {
	good := clientHello(t, &tls.Config{ServerName: "a.example.com"})
	cases := map[string][]byte{
		"empty":                 nil,
		"not a handshake":       []byte("GET / HTTP/1.1\r\n"),
		"truncated record":      good[:len(good)-1],
		"record length too big": append(append([]byte{}, good[:3]...), 0xff, 0xff),
		"a ServerHello type":    append(append([]byte{}, good[:5]...), append([]byte{2}, good[6:]...)...),
	}
	for name, b := range cases {
		if _, err := probe.ParseClientHello(b); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// FuzzParseClientHello: no input makes the parser panic, and whatever it accepts
// it accepts consistently.
func FuzzParseClientHello(f *testing.F) {
	f.Add(clientHello(f, &tls.Config{ServerName: "shop.example.com", NextProtos: []string{"h2"}}))
	f.Add(clientHello(f, &tls.Config{ServerName: "old.example.com", MaxVersion: tls.VersionTLS12}))
	f.Add([]byte{22, 3, 1, 0, 4, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := probe.ParseClientHello(b)
		if err == nil && h == nil {
			t.Fatal("nil ClientHello without an error")
		}
	})
}

// splitRecords re-frames a ClientHello sent in one record into several, cutting
// its handshake bytes at the offsets given (RFC 8446 §5.1 allows any cut).
func splitRecords(t testing.TB, oneRecord []byte, cuts ...int) []byte {
	t.Helper()
	if len(oneRecord) < 5 || int(oneRecord[3])<<8|int(oneRecord[4]) != len(oneRecord)-5 {
		t.Fatalf("not a single record of %d bytes", len(oneRecord))
	}
	msg := oneRecord[5:]
	var out []byte
	prev := 0
	for _, c := range append(cuts, len(msg)) {
		frag := msg[prev:c]
		out = append(out, 22, oneRecord[1], oneRecord[2], byte(len(frag)>>8), byte(len(frag)))
		out = append(out, frag...)
		prev = c
	}
	return out
}

// record frames payload as one TLS record of type typ.
func record(typ byte, payload []byte) []byte {
	return append([]byte{typ, 3, 1, byte(len(payload) >> 8), byte(len(payload))}, payload...)
}

// A ClientHello may span records (RFC 8446 §5.1: "Handshake messages MAY be
// fragmented across multiple TLSPlaintext records"); the router reassembles it,
// within MaxClientHello, and refuses what the RFC forbids.
func TestClientHelloAcrossRecords(t *testing.T) {
	raw := clientHello(t, &tls.Config{ServerName: "split.example.com", NextProtos: []string{"h2", "http/1.1"}})
	msg := raw[5:]
	every := make([]int, 0, len(msg))
	for i := 1; i < len(msg); i++ {
		every = append(every, i)
	}
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"cut inside the handshake header", splitRecords(t, raw, 2)},
		{"cut in the middle", splitRecords(t, raw, len(msg)/2)},
		{"three records", splitRecords(t, raw, 10, len(msg)-10)},
		{"one byte per record", splitRecords(t, raw, every...)},
		{"followed by bytes of the client's next flight", append(splitRecords(t, raw, 100), record(23, []byte("early"))...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := probe.ParseClientHello(c.b)
			if err != nil || h.ServerName != "split.example.com" || !slices.Equal(h.ALPN, []string{"h2", "http/1.1"}) {
				t.Fatalf("ParseClientHello: %+v, %v", h, err)
			}
			// Read from a connection, the second record arriving later.
			client, server := net.Pipe()
			defer server.Close()
			go func() {
				client.Write(c.b[:len(c.b)/2])
				time.Sleep(20 * time.Millisecond)
				client.Write(c.b[len(c.b)/2:])
			}()
			h, peeked, err := probe.PeekClientHello(server, 0, time.Now().Add(5*time.Second))
			if err != nil || h.ServerName != "split.example.com" {
				t.Fatalf("PeekClientHello: %+v, %v", h, err)
			}
			if !bytes.HasPrefix(c.b, peeked) || len(peeked) < len(c.b)-len("early")-5 {
				t.Errorf("peeked %d bytes, want the records as sent (%d bytes)", len(peeked), len(c.b))
			}
		})
	}

	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"an alert between the fragments", append(append(splitRecords(t, raw, 50)[:5+50], record(21, []byte{2, 40})...), record(22, msg[50:])...)},
		{"an empty handshake record", append(record(22, nil), raw...)},
		{"a record over 2^14 bytes", record(22, append(append([]byte{}, msg...), make([]byte, 1<<14)...))},
		{"a message declaring more than MaxClientHello", record(22, []byte{1, 0x02, 0, 0})},
		// 60,000 bytes of message fit the limit; in 1-byte records they do not.
		{"records totalling more than MaxClientHello", append(record(22, []byte{1, 0, 0xea, 0x60}), bytes.Repeat(record(22, []byte{0}), probe.MaxClientHello/6+1)...)},
		{"the second record missing", splitRecords(t, raw, 100)[:5+100]},
	} {
		t.Run("refused: "+c.name, func(t *testing.T) {
			if h, err := probe.ParseClientHello(c.b); err == nil {
				t.Errorf("parsed %+v", h)
			}
		})
	}

	t.Run("a slow trickle of tiny records is cut off at the byte limit", func(t *testing.T) {
		client, server := net.Pipe()
		defer server.Close()
		go func() {
			defer client.Close()
			client.Write(record(22, []byte{1, 0, 0x07, 0xd0})) // declares 2,000 bytes

			for range 1 << 20 {
				if _, err := client.Write(record(22, []byte{0})); err != nil {
					return
				}
			}
		}()
		_, peeked, err := probe.PeekClientHello(server, 4096, time.Now().Add(5*time.Second))
		if err == nil || len(peeked) > 4096 {
			t.Errorf("read %d bytes (limit 4096): %v", len(peeked), err)
		}
	})
}

// FuzzClientHelloAcrossRecords: however a real ClientHello is cut into records,
// the router reads the same server name and ALPN as from one record.
func FuzzClientHelloAcrossRecords(f *testing.F) {
	raw := clientHello(f, &tls.Config{ServerName: "fuzz.example.com", NextProtos: []string{"h2", "http/1.1"}})
	want, err := probe.ParseClientHello(raw)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{2})
	f.Add([]byte{100, 1, 1, 1})
	f.Add([]byte{255, 255, 255})
	f.Fuzz(func(t *testing.T, steps []byte) {
		msg := raw[5:]
		var cuts []int
		for i, at := 0, 0; i < len(steps); i++ {
			at += int(steps[i]) + 1
			if at >= len(msg) {
				break
			}
			cuts = append(cuts, at)
		}
		got, err := probe.ParseClientHello(splitRecords(t, raw, cuts...))
		if err != nil || got.ServerName != want.ServerName || !slices.Equal(got.ALPN, want.ALPN) {
			t.Fatalf("cut at %v: %+v, %v; want %+v", cuts, got, err, want)
		}
	})
}
