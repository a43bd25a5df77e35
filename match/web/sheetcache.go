package web

import (
	"net/http"
	"sync"
	"sync/atomic"
)

// sheetCache keeps the public sheets drawn (/e/{id}/cards for a thousand
// players costs a tenth of a CPU-second): a page is kept until the
// director's store changes (director.Store.Generation), the same page
// asked for by many at once is drawn once, and at most sheetDrawers pages
// are drawn at a time, so that public pages cannot take the cores the
// games need. At most sheetCacheMax pages are kept.
type sheetCache struct {
	mu      sync.Mutex
	m       map[sheetKey]*sheetPage
	drawers chan struct{}
	draws   atomic.Int64 // pages drawn (tests: a hit draws nothing)
}

const (
	sheetCacheMax = 512
	sheetDrawers  = 2
)

// sheetKey names one drawing of a sheet.
type sheetKey struct {
	kind, id string
	n        int
	lang     string
	chosen   bool
}

// sheetPage is a drawn page (or one being drawn: ready is closed when it
// is done). A page that could not be drawn has status != 200 and is not
// kept.
type sheetPage struct {
	gen    uint64
	ready  chan struct{}
	status int
	header http.Header
	body   []byte
}

func newSheetCache() *sheetCache {
	return &sheetCache{m: make(map[sheetKey]*sheetPage), drawers: make(chan struct{}, sheetDrawers)}
}

// get returns the page of key at generation gen, drawing it with draw when
// it is not kept (draw writes to a recorder: its status, headers, body).
func (c *sheetCache) get(key sheetKey, gen uint64, draw func(w http.ResponseWriter)) *sheetPage {
	c.mu.Lock()
	if p, ok := c.m[key]; ok && p.gen == gen {
		c.mu.Unlock()
		<-p.ready
		if p.status == http.StatusOK {
			return p
		}
		c.mu.Lock()
	}
	p := &sheetPage{gen: gen, ready: make(chan struct{})}
	if len(c.m) >= sheetCacheMax {
		clear(c.m) // simple and bounded; the pages are drawn again on demand
	}
	c.m[key] = p
	c.mu.Unlock()

	c.drawers <- struct{}{}
	rec := &pageRecorder{h: make(http.Header)}
	draw(rec)
	<-c.drawers
	c.draws.Add(1)
	p.status, p.header, p.body = rec.status, rec.h, rec.body
	if p.status == 0 {
		p.status = http.StatusOK
	}
	if p.status != http.StatusOK {
		c.mu.Lock()
		if c.m[key] == p {
			delete(c.m, key)
		}
		c.mu.Unlock()
	}
	close(p.ready)
	return p
}

// pageRecorder is the ResponseWriter a sheet is drawn into.
type pageRecorder struct {
	h      http.Header
	status int
	body   []byte
}

func (r *pageRecorder) Header() http.Header { return r.h }
func (r *pageRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *pageRecorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body = append(r.body, p...)
	return len(p), nil
}

// send answers with a drawn page.
func (p *sheetPage) send(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range p.header {
		h[k] = v
	}
	w.WriteHeader(p.status)
	w.Write(p.body)
}
