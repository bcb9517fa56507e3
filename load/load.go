// Package load reads Gateway API configuration from files, stdin, kustomize folders
// or a cluster into one model, remembering where every object came from.
package load

import (
	"errors"
	"hash/maphash"
	"io"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// FileOptions says which files to read, as kubectl's -f, -R and -k do.
type FileOptions struct {
	// Filenames are files, folders or "-" for Stdin.
	Filenames []string
	// Recursive descends into sub-folders of folders in Filenames.
	Recursive bool
	// Kustomize is a kustomization folder to build and read.
	Kustomize string
	// DefaultNamespace is given to namespaced objects that name none.
	DefaultNamespace string
	Stdin            io.Reader
	// MaxInputBytes bounds the bytes read from every file, standard input and
	// the kustomize build together; 0 means DefaultMaxInputBytes.
	MaxInputBytes int64
	// Admission says how the Gateway API objects are admitted; the zero value
	// holds them to the built-in CRDs.
	Admission Admission
	// WithoutRaw leaves Meta.Raw nil for every object but Gateways and
	// Meshes, whose provisional fields (GEP-3792) the engine reads from it:
	// for a command that does not print objects as written (render status
	// does). The text is most of what a route costs to keep.
	WithoutRaw bool
	// Shared, when set, decodes each document whose text a load of the same
	// Shared decoded before into the objects of that decoding, at this
	// load's file and lines (a diff's two sides).
	Shared *Shared
}

// input is one stream of YAML and the name it is reported under. Its text
// is in chunks, each of which starts a document where the last ended: a
// regular file is read in several (readChunks), anything else in one.
type input struct {
	name   string
	chunks [][]byte
	// reread is set for a regular file: its documents drop their text once
	// decoded, and the rare question that needs it again (placeReferrers)
	// reads the file again. Standard input and a kustomize build keep it.
	reread bool
}

// Files loads every object named by opts into a model. Any unreadable file or
// undecodable document is an error naming file:line; objects of kinds the tool does
// not analyze are counted in Model.Skipped.
func Files(opts FileOptions) (*model.Model, error) {
	if len(opts.Filenames) == 0 && opts.Kustomize == "" {
		return nil, errors.New("no input: give -f FILE|DIR|- or -k DIR, or omit them to read the cluster")
	}
	if opts.DefaultNamespace == "" {
		opts.DefaultNamespace = "default"
	}
	adm, err := opts.Admission.resolve(false)
	if err != nil {
		return nil, err
	}
	defer adm.done()
	files, err := listFiles(opts.Filenames, opts.Recursive)
	if err != nil {
		return nil, err
	}
	budget := newInputBudget(opts.MaxInputBytes)
	if opts.Shared != nil {
		opts.Shared.busy.Lock()
		defer opts.Shared.busy.Unlock()
	}
	p := newDecodePipeline(opts.DefaultNamespace, adm, !opts.WithoutRaw, opts.Shared)
	go readInputs(files, opts, budget, p)
	return p.model()
}

// sourceDocument is one document of an input and where it is.
type sourceDocument struct {
	src      model.Source
	bodyLine int
	body     []byte
	// reread: body is dropped once decoded, and read again from src.File
	// when needed (input.reread); sum is the dropped body's hash, so the
	// text read again is known to be the text decoded.
	reread bool
	sum    uint64
}

// bodySeed hashes the documents whose text is dropped (sourceDocument.sum).
var bodySeed = maphash.MakeSeed()

// model adds the decoded objects to one model, a chunk at a time in input
// order while the later chunks are decoded, so the model keeps input order
// and does not depend on scheduling. It fails as reading failed, else at the
// first document, in input order, that did not decode, else at the first
// object defined twice.
func (p *decodePipeline) model() (*model.Model, error) {
	defer p.workers.Wait()
	m := &model.Model{Skipped: map[string]int{}, Admission: p.adm.report}
	var failed *Error
	var dups duplicates
	for i := 0; ; i++ {
		c := p.next(i)
		if c == nil {
			break
		}
		for d, r := range c.results {
			if failed == nil && r.err != nil {
				failed = r.err
			}
			if failed != nil {
				continue // the model is not returned: only the error matters
			}
			dups.add(i, d, r.objects)
			for _, s := range r.skipped {
				m.Skipped[s]++
			}
			for _, o := range r.objects {
				o.addTo(m)
			}
			p.adm.record(r)
		}
	}
	p.mu.Lock()
	chunks, err := p.chunks, p.readErr
	p.mu.Unlock()
	switch {
	case err != nil:
		return nil, err
	case failed != nil:
		return nil, failed
	}
	if err := dups.err(chunks); err != nil {
		return nil, err
	}
	placeReferrers(chunks, p.adm.report)
	shareMetadata(m, p.adm != nil && p.adm.validate)
	return m, nil
}
