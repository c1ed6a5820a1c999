package nfs

import (
	"net"
	"sync"
)

// listener tracks the connections it accepted, so that closing the server ends them too
// (go-nfs serves each until its client leaves): no request reaches the session after it
// was applied and closed.
type listener struct {
	net.Listener
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

func newListener(ln net.Listener) *listener {
	return &listener{Listener: ln, conns: map[net.Conn]struct{}{}}
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	l.conns[c] = struct{}{}
	return &conn{Conn: c, l: l}, nil
}

// Close stops accepting and closes every connection accepted.
func (l *listener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for c := range l.conns {
		c.Close()
	}
	l.conns = nil
	return err
}

// conn forgets itself when closed.
type conn struct {
	net.Conn
	l *listener
}

func (c *conn) Close() error {
	c.l.mu.Lock()
	delete(c.l.conns, c.Conn)
	c.l.mu.Unlock()
	return c.Conn.Close()
}
