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
func (p *Proxy) serveHTTP(tc *tls.Conn, port *serving.Port, sni string, rec *ConnRecord, client string, handshake, whole time.Time) {
	quiet := log.New(io.Discard, "", 0)
	h := &hostRouter{p: p, port: port, sni: sni, rec: rec, client: client}
	h.rp = &httputil.ReverseProxy{
		Director:     func(*http.Request) {},
		Transport:    backendTransport{p: p},
		ErrorHandler: h.badGateway,
		ErrorLog:     quiet,
	}
	ln := newOneConnListener(tc)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: time.Until(handshake),
		IdleTimeout:       p.opts.HandshakeTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          quiet,
		// An empty map: HTTP/1.1 only, as the listener offers in ALPN.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ConnState:    ln.track,
	}
	stop := time.AfterFunc(time.Until(whole), func() { tc.Close() })
	defer stop.Stop()
	srv.Serve(ln)
	h.wg.Wait()
}

// hostRouter routes each request of one terminated connection.
type hostRouter struct {
	p      *Proxy
	port   *serving.Port
	sni    string
	rp     *httputil.ReverseProxy
	client string
	// rec is the connection's account: the last request's route and outcome.
	rec *ConnRecord
	// wg counts requests being served: a hijacked connection outlives Serve.
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
	if err != nil {
		var ref *refusal
		errors.As(err, &ref)
		h.rec.Error, h.rec.refused, h.rec.Status = err.Error(), true, ref.httpStatus()
		h.p.keep(h.client, h.rec)
		h.answer(w, ref.httpStatus(), err.Error())
		return
	}
	h.rec.Backend, h.rec.Error, h.rec.refused, h.rec.Status, h.rec.BackendError = rt.backendKey(), "", false, 0, ""
	h.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, &exchange{rt: rt, rec: h.rec, keep: func() { h.p.keep(h.client, h.rec) }})))
}

// badGateway answers a request whose backend did not answer.
func (h *hostRouter) badGateway(w http.ResponseWriter, r *http.Request, err error) {
	h.rec.BackendError, h.rec.Status = backendFailure(h.rec.Backend, err), http.StatusBadGateway
	h.p.keep(h.client, h.rec)
	h.answer(w, http.StatusBadGateway, h.rec.BackendError)
}

// ProxyAnswerPrefix starts the body of every response an HTTPS listener of the
// proxy writes itself, rather than a backend.
const ProxyAnswerPrefix = "gwtls-proxy"

func (h *hostRouter) answer(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	fmt.Fprintf(w, "%s %d %s: %s\n", ProxyAnswerPrefix, status, http.StatusText(status), msg)
}

// exchange is one request's route, and the connection's account to fill.
type exchange struct {
	rt   route
	rec  *ConnRecord
	keep func()
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
	bc, err := t.p.dialTerminated(x.rt, x.rec, time.Now().Add(t.p.opts.HandshakeTimeout))
	if err != nil {
		return nil, err
	}
	x.keep()
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
