package probe

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// maxHeaderBytes bounds an HTTPS request's header, as the proxy reads it to
// route on the Host.
const maxHeaderBytes = 64 << 10

// serveHTTP serves the requests of a connection an HTTPS listener terminated:
// each is routed by its Host header as simulate routes it (routeForHost) and
// forwarded to the backend the route picks. A request simulate refuses is
// answered 404 or 500 (refusal.httpStatus); a backend that does not answer,
// 502 Bad Gateway. The first request's header must arrive by the handshake
// deadline, and the connection ends at its own deadline.
func (p *Proxy) serveHTTP(tc *tls.Conn, cc *clientConn, port *serving.Port, sni string) {
	quiet := log.New(io.Discard, "", 0)
	h := &hostRouter{p: p, cc: cc, port: port, sni: sni}
	h.rp = &httputil.ReverseProxy{
		// The Host, path and header go as the client sent them, as a gateway
		// forwards them, with X-Forwarded-For/-Host/-Proto.
		Rewrite:      func(pr *httputil.ProxyRequest) { pr.SetXForwarded() },
		Transport:    backendTransport{p: p},
		ErrorHandler: h.badGateway,
		ErrorLog:     quiet,
	}
	ln := newOneConnListener(tc)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: time.Until(cc.handshake),
		IdleTimeout:       p.opts.HandshakeTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          quiet,
		// An empty map: HTTP/1.1 only, as the listener offers in ALPN.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ConnState:    ln.track,
	}
	stop := time.AfterFunc(time.Until(cc.whole), func() { tc.Close() })
	defer stop.Stop()
	srv.Serve(ln)
	h.wg.Wait()
}

// hostRouter routes each request of one terminated connection; the
// connection's account says what became of the last one.
type hostRouter struct {
	p    *Proxy
	cc   *clientConn
	port *serving.Port
	sni  string
	rp   *httputil.ReverseProxy
	// wg counts requests being served: Serve may return before a handler does.
	wg sync.WaitGroup
}

type exchangeKey struct{}

func (h *hostRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.wg.Add(1)
	defer h.wg.Done()
	host := r.Host
	if hp, _, err := net.SplitHostPort(host); err == nil {
		host = hp
	}
	rt, err := routeForHost(h.port, h.sni, host)
	rec := h.cc.rec
	*rec = ConnRecord{listener: rec.listener}
	if err != nil {
		status := http.StatusInternalServerError
		var ref *refusal
		if errors.As(err, &ref) {
			status = ref.httpStatus()
		}
		rec.Error, rec.refused, rec.Status = err.Error(), true, status
		h.p.keep(h.cc.client, rec)
		answer(w, status, err.Error())
		return
	}
	rec.Backend = rt.backendKey()
	x := &exchange{rt: rt, cc: h.cc}
	h.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, x)))
}

// badGateway answers a request whose backend did not answer.
func (h *hostRouter) badGateway(w http.ResponseWriter, r *http.Request, err error) {
	h.cc.rec.Status = http.StatusBadGateway
	h.p.failBackend(h.cc, err)
	answer(w, http.StatusBadGateway, h.cc.rec.BackendError)
}

// proxyAnswerPrefix starts the body of every response an HTTPS listener of the
// proxy writes itself, rather than a backend.
const proxyAnswerPrefix = "gwtls-proxy"

func answer(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	fmt.Fprintf(w, "%s %d %s: %s\n", proxyAnswerPrefix, status, http.StatusText(status), msg)
}

// exchange is one request's route, and the connection whose account it fills.
type exchange struct {
	rt route
	cc *clientConn
}

// backendTransport sends each request to the backend its route picked, on a
// connection of its own (plain, or re-encrypted under a BackendTLSPolicy), as
// dialTerminated connects.
type backendTransport struct{ p *Proxy }

func (t backendTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x == nil {
		return nil, errors.New("a request without a route")
	}
	bc, err := t.p.dialTerminated(x.rt, x.cc.rec, time.Now().Add(t.p.opts.HandshakeTimeout))
	if err != nil {
		return nil, err
	}
	t.p.keep(x.cc.client, x.cc.rec)
	if err := req.Write(bc); err != nil {
		bc.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(bc), req)
	if err != nil {
		bc.Close()
		return nil, err
	}
	resp.Body = &closeBoth{ReadCloser: resp.Body, conn: bc}
	return resp, nil
}

// closeBoth is a response body that closes its connection with it.
type closeBoth struct {
	io.ReadCloser
	conn net.Conn
}

func (b *closeBoth) Close() error {
	err := b.ReadCloser.Close()
	b.conn.Close()
	return err
}

// oneConnListener hands http.Server one connection, then waits for it to end.
type oneConnListener struct {
	conn net.Conn
	once sync.Once
	done chan struct{}
	end  sync.Once
}

func newOneConnListener(c net.Conn) *oneConnListener {
	return &oneConnListener{conn: c, done: make(chan struct{})}
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	var c net.Conn
	l.once.Do(func() { c = l.conn })
	if c != nil {
		return c, nil
	}
	<-l.done
	return nil, net.ErrClosed
}

func (l *oneConnListener) track(_ net.Conn, s http.ConnState) {
	if s == http.StateClosed || s == http.StateHijacked {
		l.end.Do(func() { close(l.done) })
	}
}

func (l *oneConnListener) Close() error   { return nil }
func (l *oneConnListener) Addr() net.Addr { return l.conn.LocalAddr() }
