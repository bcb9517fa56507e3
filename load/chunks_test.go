package load

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestChunkedFilesLoadAsWhole: a regular file is read in chunks cut where a
// document starts (readChunks), so that the text of decoded documents is
// garbage before the load ends. Cut as small as a chunk can be, every
// golden input loads into the same model, or fails with the same error at
// the same line, as when read whole.
func TestChunkedFilesLoadAsWhole(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../testdata/*/*.yaml", "../testdata/*/*/*.yaml", "../examples/*/*.yaml"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	if len(files) < 100 {
		t.Fatalf("%d inputs under testdata/ and examples/, want the corpus", len(files))
	}
	defer func(n int) { fileChunk = n }(fileChunk)
	chunked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		load := func(chunk int) (*model.Model, string) {
			fileChunk = chunk
			m, err := Files(FileOptions{Filenames: []string{file}})
			if err != nil {
				return nil, err.Error()
			}
			for _, ing := range m.Ingresses {
				ing.IngressLines = nil // a func: compared below
			}
			return m, ""
		}
		whole, wholeErr := load(len(data) + 1)
		if n := len(readChunksOf(t, file, 16)); n > 1 {
			chunked++
		}
		cut, cutErr := load(16)
		if wholeErr != cutErr {
			t.Errorf("%s: read whole: error %q; in chunks: %q", file, wholeErr, cutErr)
			continue
		}
		if !reflect.DeepEqual(whole, cut) {
			t.Errorf("%s: the model read in chunks differs from the model read whole", file)
		}
	}
	if chunked < len(files)/2 {
		t.Errorf("only %d of %d inputs were read in more than one chunk", chunked, len(files))
	}
}

func readChunksOf(t *testing.T, file string, chunk int) [][]byte {
	t.Helper()
	defer func(n int) { fileChunk = n }(fileChunk)
	fileChunk = chunk
	in, err := readFile(file, nil, newInputBudget(0))
	if err != nil {
		t.Fatal(err)
	}
	return in.chunks
}

// TestReadChunksCutAtDocumentStarts: each chunk but the first starts with a
// separator line, and together they are the file.
func TestReadChunksCutAtDocumentStarts(t *testing.T) {
	text := "a: 1\n---\nb: 2\n---x\nc: 3\n--- # c\r\n" + strings.Repeat("d: 4\n", 10) + "--- {e: 5}\nf: 6\n"
	file := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	chunks := readChunksOf(t, file, 8)
	var got []string
	for _, c := range chunks {
		got = append(got, string(c))
	}
	// The read that ends the file cuts nothing.
	want := []string{"a: 1\n", "---\nb: 2\n---x\nc: 3\n", "--- # c\r\n" + strings.Repeat("d: 4\n", 10) + "--- {e: 5}\nf: 6\n"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunks %q, want %q", got, want)
	}
}

// TestReadChunksOfAFileWithoutSeparators: a file no "---" cuts (a List, as
// kubectl get -o yaml writes it) is one buffer the size of the file, not one
// grown by doubling past it (which kept up to twice the file alive).
func TestReadChunksOfAFileWithoutSeparators(t *testing.T) {
	text := "apiVersion: v1\nkind: List\nitems:\n" + strings.Repeat("- kind: Service\n  metadata: {name: web}\n", 1000)
	file := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	chunks := readChunksOf(t, file, 1000)
	if len(chunks) != 1 || string(chunks[0]) != text {
		t.Fatalf("read %d chunks, want the file in one", len(chunks))
	}
	if c := cap(chunks[0]); c > len(text)+1 {
		t.Errorf("the buffer holds %d bytes for a file of %d", c, len(text))
	}
}
