// Package load reads Gateway API configuration from files, stdin, kustomize folders
// or a cluster into one model, remembering where every object came from.
package load

import (
	"bytes"
	"errors"
	"hash/maphash"
	"io"
	"runtime"
	"sync"

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
	inputs := make([]input, 0, len(files)+1)
	for _, name := range files {
		in, err := readFile(name, opts.Stdin, budget)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, in)
	}
	if opts.Kustomize != "" {
		in, err := kustomize(opts.Kustomize, budget)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, in)
	}
	return decodeInputs(inputs, opts.DefaultNamespace, adm, !opts.WithoutRaw)
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

// decodeInputs decodes named YAML streams into one model, admitting the Gateway
// API objects with adm, and keeping every object's Meta.Raw when keepRaw is
// set (see FileOptions.WithoutRaw). Documents are decoded on every core; the
// model keeps input order, so the result does not depend on scheduling.
func decodeInputs(inputs []input, defaultNamespace string, adm *admission, keepRaw bool) (*model.Model, error) {
	// At 100k routes there are about as many documents: the list of them is
	// sized once rather than grown.
	type chunk struct {
		name   string
		reread bool
		// lines are the lines of the input before the chunk.
		lines int
		docs  []document
	}
	var split []chunk
	n := 0
	for i := range inputs {
		lines := 0
		for _, c := range inputs[i].chunks {
			split = append(split, chunk{inputs[i].name, inputs[i].reread, lines, splitDocuments(c)})
			n += len(split[len(split)-1].docs)
			lines += bytes.Count(c, []byte{'\n'})
		}
		// The documents hold the text from here on: each chunk is
		// garbage once its documents are decoded.
		inputs[i].chunks = nil
	}
	docs := make([]sourceDocument, 0, n)
	for i, c := range split {
		for _, d := range c.docs {
			docs = append(docs, sourceDocument{model.Source{File: c.name, Line: c.lines + d.line}, c.lines + d.bodyLine, d.body, c.reread, 0})
		}
		split[i].docs = nil
	}
	results := make([]decoded, len(docs))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	next := make(chan int, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Without the objects' text, each worker converts every
			// document into one buffer: dropRaw copies out what is kept.
			var scratch *[]byte
			if !keepRaw {
				scratch = new([]byte)
			}
			for i := range next {
				r := decodeDocument(docs[i].src, docs[i].bodyLine, docs[i].body, defaultNamespace, adm, scratch)
				if !keepRaw {
					r.dropRaw()
				}
				results[i] = r
				if !r.list && docs[i].reread {
					// Only a List's text is read again, for the line
					// of an item defined twice (duplicateObjects);
					// placeReferrers reads a file again if it must.
					docs[i].sum = maphash.Bytes(bodySeed, docs[i].body)
					docs[i].body = nil
				}
			}
		}()
	}
	for i := range docs {
		next <- i
	}
	close(next)
	wg.Wait()

	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
	}
	if err := duplicateObjects(docs, results); err != nil {
		return nil, err
	}
	m := &model.Model{Skipped: map[string]int{}, Admission: adm.report}
	for _, r := range results {
		for _, s := range r.skipped {
			m.Skipped[s]++
		}
		for _, o := range r.objects {
			o.addTo(m)
		}
		adm.record(r)
	}
	placeReferrers(docs, results, adm.report)
	if adm != nil && adm.validate {
		regroupMetadata(m)
	}
	return m, nil
}
