package load

import (
	"bytes"
	"crypto/sha256"
	"hash/maphash"
	"runtime"
	"sync"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// A load of files reads, splits and decodes at once (decodePipeline): one
// goroutine reads the files in chunks (readChunks), every core splits the
// chunks read into documents and decodes them, and the caller adds the
// decoded objects to the model chunk by chunk, in input order, while the
// later chunks are decoded. At 100k routes reading the file, splitting it and
// checking for objects defined twice took a fifth of the run's wall time on
// one core before any document was decoded (docs/performance.md, "The load
// on both cores").

// loadChunk is one chunk of an input: its text until split, then its
// documents and what each decoded to.
type loadChunk struct {
	name   string
	reread bool
	// lines are the lines of the input before the chunk.
	lines int
	text  []byte

	// Set by the worker that splits the chunk; read once ready.
	docs    []sourceDocument
	results []decoded
	// ready: docs and results are set. claimed: docs[:claimed] are handed
	// to workers; left: how many of them are not decoded yet. Guarded by
	// decodePipeline.mu.
	ready         bool
	claimed, left int
}

// done reports whether every document of the chunk is decoded; the caller
// holds the pipeline's lock.
func (c *loadChunk) done() bool { return c.ready && c.left == 0 }

// split cuts the chunk's text into documents and lets go of the text: the
// documents hold it from here on.
func (c *loadChunk) split() {
	docs := splitDocuments(c.text)
	c.text = nil
	c.docs = make([]sourceDocument, len(docs))
	for i, d := range docs {
		c.docs[i] = sourceDocument{model.Source{File: c.name, Line: c.lines + d.line}, c.lines + d.bodyLine, d.body, c.reread, 0}
	}
	c.results = make([]decoded, len(docs))
}

// decodePipeline schedules the chunks of a load on every core. The chunks
// are split in the order they were read, and the documents of the oldest
// chunk that has any left are decoded first, a few at a time, so that the
// caller, which takes the chunks in order, waits as little as it can.
type decodePipeline struct {
	mu   sync.Mutex
	wake sync.Cond // a chunk was read, split or decoded, or reading ended
	// chunks are the chunks read so far, in input order; chunks[:split]
	// are split or being split; every document of chunks[:claimed] is
	// handed to a worker.
	chunks         []*loadChunk
	split, claimed int
	// pending counts the chunks read and not yet decoded; reading waits
	// while it is readAhead.
	pending, readAhead int
	// readDone: every chunk is read, or readErr says why not.
	readDone bool
	readErr  error

	defaultNamespace string
	adm              *admission
	keepRaw          bool
	// share, when set, holds the documents other loads decoded
	// (FileOptions.Shared).
	share   *Shared
	workers sync.WaitGroup
}

// claimBatch is how many documents a worker takes at once: enough that the
// lock is taken about once per 10 KB of text, few enough that the last
// chunk's documents are shared between the cores to the end.
const claimBatch = 8

func newDecodePipeline(defaultNamespace string, adm *admission, keepRaw bool, share *Shared) *decodePipeline {
	workers := runtime.GOMAXPROCS(0)
	p := &decodePipeline{defaultNamespace: defaultNamespace, adm: adm, keepRaw: keepRaw, readAhead: workers + 2}
	if share != nil && share.join(p) {
		p.share = share
	}
	p.wake.L = &p.mu
	for range workers {
		p.workers.Go(p.work)
	}
	return p
}

// add hands the pipeline a chunk of input text read, once fewer than
// readAhead chunks wait to be decoded: the text read ahead of the decoding is
// live heap, and the collector's goal is a multiple of the live heap (with
// the whole 40 MB file of 100k routes read ahead, the load's heap grew 30 MB
// higher).
func (p *decodePipeline) add(name string, reread bool, lines int, text []byte) {
	p.mu.Lock()
	for p.pending >= p.readAhead {
		p.wake.Wait()
	}
	p.pending++
	p.chunks = append(p.chunks, &loadChunk{name: name, reread: reread, lines: lines, text: text})
	p.mu.Unlock()
	p.wake.Broadcast()
}

// readEnded tells the pipeline that no chunk follows: err is why reading
// stopped early, nil when every input was read. After an error no document
// is decoded any more.
func (p *decodePipeline) readEnded(err error) {
	p.mu.Lock()
	p.readDone, p.readErr = true, err
	p.mu.Unlock()
	p.wake.Broadcast()
}

// work splits chunks and decodes documents until every chunk read is decoded
// and reading has ended.
func (p *decodePipeline) work() {
	// Without the objects' text, each worker converts every document into
	// one buffer: dropRaw copies out what is kept.
	var scratch *[]byte
	if !p.keepRaw {
		scratch = new([]byte)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.readErr == nil {
		if c, lo, hi := p.claim(); c != nil {
			p.mu.Unlock()
			for i := lo; i < hi; i++ {
				p.decode(c, i, scratch)
			}
			p.mu.Lock()
			if c.left -= hi - lo; c.left == 0 {
				p.pending--
				p.wake.Broadcast() // the caller or the reader may wait for it
			}
			continue
		}
		if p.split < len(p.chunks) {
			c := p.chunks[p.split]
			p.split++
			p.mu.Unlock()
			c.split()
			p.mu.Lock()
			c.ready, c.left = true, len(c.docs)
			if c.left == 0 {
				p.pending--
			}
			p.wake.Broadcast() // its documents are work for every core
			continue
		}
		if p.readDone {
			return
		}
		p.wake.Wait()
	}
}

// claim hands out up to claimBatch documents of the oldest split chunk that
// has documents no worker took yet; nil when there is none. The caller holds
// the lock.
func (p *decodePipeline) claim() (c *loadChunk, lo, hi int) {
	for p.claimed < p.split && p.chunks[p.claimed].ready && p.chunks[p.claimed].claimed == len(p.chunks[p.claimed].docs) {
		p.claimed++
	}
	for _, c := range p.chunks[p.claimed:p.split] {
		if c.ready && c.claimed < len(c.docs) {
			lo = c.claimed
			c.claimed = min(lo+claimBatch, len(c.docs))
			return c, lo, c.claimed
		}
	}
	return nil, 0, 0
}

// decode decodes the i-th document of c into c.results[i].
func (p *decodePipeline) decode(c *loadChunk, i int, scratch *[]byte) {
	d := &c.docs[i]
	var r decoded
	var key [sha256.Size]byte
	shared := false
	if p.share != nil {
		key = sha256.Sum256(d.body)
		r, shared = p.share.lookup(key, d)
	}
	if !shared {
		r = decodeDocument(d.src, d.bodyLine, d.body, p.defaultNamespace, p.adm, scratch)
		if !p.keepRaw {
			r.dropRaw()
		}
		if p.share != nil {
			p.share.keep(key, d, r)
		}
	}
	c.results[i] = r
	if !r.list && d.reread {
		// Only a List's text is read again, for the line of an item
		// defined twice (duplicates); placeReferrers reads a file again
		// if it must.
		d.sum = maphash.Bytes(bodySeed, d.body)
		d.body = nil
	}
}

// next waits for the i-th chunk to be decoded and returns it; nil once
// reading has ended with fewer chunks, or failed (readErr).
func (p *decodePipeline) next(i int) *loadChunk {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		switch {
		case p.readErr != nil:
			return nil
		case i < len(p.chunks) && p.chunks[i].done():
			return p.chunks[i]
		case i >= len(p.chunks) && p.readDone:
			return nil
		}
		p.wake.Wait()
	}
}

// readInputs reads the files opts names, then the kustomize build, handing
// each chunk to p as soon as it is read, and tells p when reading ends.
func readInputs(files []string, opts FileOptions, budget *inputBudget, p *decodePipeline) {
	lines := 0 // of the current input before its next chunk
	emit := func(name string, reread bool, chunk []byte) {
		p.add(name, reread, lines, chunk)
		lines += bytes.Count(chunk, []byte{'\n'})
	}
	for _, name := range files {
		lines = 0
		if err := streamFile(name, opts.Stdin, budget, emit); err != nil {
			p.readEnded(err)
			return
		}
	}
	if opts.Kustomize != "" {
		in, err := kustomize(opts.Kustomize, budget)
		if err != nil {
			p.readEnded(err)
			return
		}
		lines = 0
		for _, c := range in.chunks {
			emit(in.name, in.reread, c)
		}
	}
	p.readEnded(nil)
}
