package probe

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"
)

// acceptor serves one listening socket, a Gateway port's or a built-in
// backend's: it hands each connection to handle, at most limit at a time, and
// keeps accepting through failures that pass (out of descriptors), as net/http's
// Server.Serve does. At the limit, new connections wait in the kernel's listen
// queue until one ends; every connection's own deadlines bound that wait.
type acceptor struct {
	ln     net.Listener
	name   string // the socket, as warnings name it
	limit  int
	handle func(net.Conn)
	log    *warnings

	slots   chan struct{}
	stopped chan struct{}
	wg      sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Backoff after a failed accept, as net/http's Server.Serve: 5 ms, doubling,
// at most a second.
const (
	firstAcceptBackoff = 5 * time.Millisecond
	maxAcceptBackoff   = time.Second
)

func newAcceptor(ln net.Listener, name string, limit int, log *warnings, handle func(net.Conn)) *acceptor {
	a := &acceptor{ln: ln, name: name, limit: limit, handle: handle, log: log,
		slots: make(chan struct{}, limit), stopped: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	a.wg.Add(1)
	go a.serve()
	return a
}

func (a *acceptor) serve() {
	defer a.wg.Done()
	failures := 0
	var backoff time.Duration
	atLimit := false
	for {
		// A slot first, so that at the limit a connection waits in the listen
		// queue rather than holding a descriptor here.
		select {
		case a.slots <- struct{}{}:
			atLimit = false
		default:
			if !atLimit {
				a.log.printf("%s: %d connections open, its limit: new connections wait until one ends", a.name, a.limit)
				atLimit = true
			}
			select {
			case a.slots <- struct{}{}:
			case <-a.stopped:
				return
			}
		}
		c, err := a.ln.Accept()
		if err != nil {
			<-a.slots
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if !acceptRetryable(err) {
				a.log.printf("%s: stopped accepting: %v", a.name, err)
				return
			}
			if failures == 0 {
				a.log.printf("%s: cannot accept connections (%v): retrying with backoff; connections wait in the listen queue", a.name, err)
			}
			failures++
			backoff = min(max(2*backoff, firstAcceptBackoff), maxAcceptBackoff)
			select {
			case <-time.After(backoff):
			case <-a.stopped:
				return
			}
			continue
		}
		if failures > 0 {
			a.log.printf("%s: accepting again after %d failed accepts", a.name, failures)
			failures, backoff = 0, 0
		}
		a.track(c, true)
		a.wg.Add(1)
		go func() {
			defer func() {
				c.Close()
				a.track(c, false)
				<-a.slots
				a.wg.Done()
			}()
			a.handle(c)
		}()
	}
}

// acceptRetryable reports whether a listener still works after this accept
// error once resources free up: out of descriptors (EMFILE, ENFILE), buffers or
// memory (ENOBUFS, ENOMEM), a connection aborted before it was accepted, or a
// timeout. These are the errors net/http's Server.Serve retries as temporary.
func acceptRetryable(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

func (a *acceptor) track(c net.Conn, open bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if open {
		a.conns[c] = struct{}{}
	} else {
		delete(a.conns, c)
	}
}

// close stops accepting, closes the connections still open and waits for
// their handlers to return.
func (a *acceptor) close() {
	a.ln.Close()
	close(a.stopped)
	a.mu.Lock()
	for c := range a.conns {
		c.Close()
	}
	a.mu.Unlock()
	a.wg.Wait()
}

// warnings writes the proxy's warnings, one line each, from any goroutine.
type warnings struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *warnings) printf(format string, args ...any) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "warning: probe: "+format+"\n", args...)
}
