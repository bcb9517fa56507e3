package load

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

const goodDoc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n"

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int      // the error's Source.Line: the line of the field it is about
		want    []string // substrings of the message
	}{
		{
			name:    "document without kind",
			content: goodDoc + "---\napiVersion: v1\nmetadata:\n  name: x\n",
			line:    6,
			want:    []string{"no kind", "apiVersion and kind"},
		},
		{
			name:    "document without apiVersion",
			content: goodDoc + "---\nkind: ConfigMap\nmetadata:\n  name: x\n",
			line:    6,
			want:    []string{"ConfigMap has no apiVersion"},
		},
		{
			name:    "scalar document",
			content: goodDoc + "---\njust a string\n",
			line:    6,
			want:    []string{"not a Kubernetes object", "apiVersion and kind"},
		},
		{
			name:    "sequence document",
			content: "- apiVersion: v1\n  kind: ConfigMap\n",
			line:    1,
			want:    []string{"not a Kubernetes object"},
		},
		{
			name:    "kind is not a string",
			content: "apiVersion: v1\nkind: [ConfigMap]\n",
			line:    2,
			want:    []string{"field kind", "want a string"},
		},
		{
			name: "wrong field type: port as a word",
			content: goodDoc + "---\n" + `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
spec:
  gatewayClassName: c
  listeners:
  - name: http
    protocol: HTTP
    port: eighty
`,
			line: 15,
			want: []string{`Gateway "web"`, "field spec.listeners[0].port:", "got a string", "want a whole number"},
		},
		{
			name:    "wrong field type: hostnames as a string",
			content: "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n  namespace: a\nspec:\n  hostnames: a.example.com\n",
			line:    7,
			want:    []string{`HTTPRoute "a/r"`, "field spec.hostnames:", "got a string", "want a list"},
		},
		{
			name:    "wrong field type: listeners as a mapping",
			content: "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n  listeners:\n    name: x\n",
			line:    6,
			want:    []string{"field spec.listeners:", "got a mapping", "want a list"},
		},
		{
			name:    "wrong field type: service port",
			content: "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: http\n",
			line:    7,
			want:    []string{`Service "s"`, "field spec.ports[0].port:", "want a whole number"},
		},
		{
			name:    "missing metadata.name",
			content: goodDoc + "---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  namespace: a\n",
			line:    8,
			want:    []string{"HTTPRoute has no metadata.name"},
		},
		{
			name:    "missing metadata",
			content: "apiVersion: v1\nkind: Secret\n",
			line:    1,
			want:    []string{"Secret has no metadata.name"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, p := mustFail(t, tt.content)
			if le.Source != (model.Source{File: p, Line: tt.line}) {
				t.Errorf("Source = %v, want %s:%d", le.Source, p, tt.line)
			}
			msg := le.Error()
			if !strings.HasPrefix(msg, p+":"+strconv.Itoa(tt.line)+": ") {
				t.Errorf("message %q does not start with file:line", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// TestMalformedYAMLLineIsFileLine: the YAML parser counts lines from its document's
// start; the error must be at the line in the file.
func TestMalformedYAMLLineIsFileLine(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		fileLine int // the line a person must look at
	}{
		{
			name: "third document",
			content: goodDoc + "---\n" + goodDoc + "---\n" +
				"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken\n   bad: indent\n",
			// lines 1-4 doc 1, 5 ---, 6-9 doc 2, 10 ---, 11.. doc 3; the bad line is 15.
			fileLine: 15,
		},
		{
			name:     "first document",
			content:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n",
			fileLine: 4,
		},
		{
			name:     "tab indentation in second document",
			content:  goodDoc + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n",
			fileLine: 9,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, p := mustFail(t, tt.content)
			if le.Source.Line != tt.fileLine || le.Source.File != p {
				t.Errorf("Source = %v, want %s:%d", le.Source, p, tt.fileLine)
			}
			if msg := le.Error(); !strings.Contains(msg, "malformed YAML") {
				t.Errorf("message %q does not say malformed YAML", msg)
			}
		})
	}
}

// TestMalformedYAMLLineAfterLeadingComments: when a document starts with comment or
// blank lines, the YAML parser counts from the line after "---". The error must
// still be at the file's line.
func TestMalformedYAMLLineAfterLeadingComments(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		fileLine int
	}{
		{
			// Line 1 comment, 2 blank, 3-5 keys, 6 the tab-indented line.
			name:     "first document with a header comment",
			content:  "# header\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n",
			fileLine: 6,
		},
		{
			// 1-4 good doc, 5 ---, 6 comment, 7-9 keys, 10 the tab-indented line.
			name:     "second document with a comment after ---",
			content:  goodDoc + "---\n# about the next object\napiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n",
			fileLine: 10,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le, _ := mustFail(t, tt.content)
			if le.Source.Line != tt.fileLine {
				t.Fatalf("error %q is at line %d, want %d: the parser counts from the document body's "+
					"first line, not its first content line", le, le.Source.Line, tt.fileLine)
			}
		})
	}
}

func TestOversizedDocument(t *testing.T) {
	var b strings.Builder
	b.WriteString(goodDoc + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n")
	line := "  k: " + strings.Repeat("x", 1000) + "\n"
	for b.Len() <= MaxDocumentBytes+len(line) {
		b.WriteString(strings.Replace(line, "k:", "k"+strconv.Itoa(b.Len())+":", 1))
	}
	le, p := mustFail(t, b.String())
	if le.Source != (model.Source{File: p, Line: 6}) {
		t.Errorf("Source = %v, want %s:6", le.Source, p)
	}
	for _, w := range []string{"16 MiB", "split"} {
		if !strings.Contains(le.Error(), w) {
			t.Errorf("message %q does not contain %q", le.Error(), w)
		}
	}
}

// TestAliasBomb: a few hundred bytes that expand exponentially through YAML aliases
// must be refused, not exhaust memory.
func TestAliasBomb(t *testing.T) {
	bomb := `apiVersion: v1
kind: ConfigMap
metadata:
  name: lol
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`
	_, _, err := loadYAML(t, "bomb.yaml", bomb)
	if err == nil {
		t.Fatal("alias bomb loaded without error")
	}
	var le *Error
	if !errors.As(err, &le) || le.Source.Line != 1 {
		t.Errorf("error %v, want a *load.Error at line 1", err)
	}
}

func TestPathErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.yaml")
	tests := []struct {
		name string
		opts FileOptions
		want []string
	}{
		{"nonexistent file", FileOptions{Filenames: []string{missing}}, []string{missing, "no such file"}},
		{"nonexistent folder", FileOptions{Filenames: []string{filepath.Join(dir, "nodir")}, Recursive: true}, []string{"nodir", "no such file"}},
		{"http URL", FileOptions{Filenames: []string{"http://example.com/gw.yaml"}}, []string{"http://example.com/gw.yaml", "URLs are not read", "download"}},
		{"https URL", FileOptions{Filenames: []string{"https://example.com/gw.yaml"}}, []string{"URLs are not read"}},
		{"no input", FileOptions{}, []string{"no input", "-f", "-k"}},
		{"stdin without reader", FileOptions{Filenames: []string{"-"}}, []string{"standard input"}},
		{"missing kustomization", FileOptions{Kustomize: dir}, []string{"kustomize build", dir}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Files(tt.opts)
			if err == nil {
				t.Fatalf("no error, model with %d objects", m.Len())
			}
			if m != nil {
				t.Error("model returned beside an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not contain %q", err, w)
				}
			}
		})
	}

	// An unreadable file (permission denied) names the file; root can read anything.
	if os.Geteuid() != 0 {
		p := filepath.Join(dir, "secret.yaml")
		if err := os.WriteFile(p, []byte(goodDoc), 0o000); err != nil {
			t.Fatal(err)
		}
		if _, err := Files(FileOptions{Filenames: []string{p}}); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("unreadable file: err = %v", err)
		}
	}
}

// TestFirstErrorInInputOrder: decoding runs in parallel, yet the error reported is
// the first one in the input, every time.
func TestFirstErrorInInputOrder(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString(goodDoc + "---\n")
	}
	b.WriteString("kind: ConfigMap\n---\nnot: [closed\n---\napiVersion: v1\n")
	want := 200*5 + 1
	for i := 0; i < 20; i++ {
		le, _ := mustFail(t, b.String())
		if le.Source.Line != want || !strings.Contains(le.Error(), "no apiVersion") {
			t.Fatalf("run %d: error %v, want the no-apiVersion error at line %d", i, le, want)
		}
	}
}

// TestSecretBadBase64: a Secret's data values are base64; a plain value is a common
// mistake (stringData was meant). The message must name the field and the fix.
func TestSecretBadBase64(t *testing.T) {
	le, p := mustFail(t, goodDoc+"---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: tls\ndata:\n  tls.crt: -----BEGIN CERTIFICATE-----\n")
	if le.Source != (model.Source{File: p, Line: 11}) {
		t.Errorf("Source = %v, want %s:11, the line of data.tls.crt", le.Source, p)
	}
	msg := le.Error()
	if !strings.Contains(msg, `Secret "tls"`) {
		t.Errorf("message %q does not name the Secret", msg)
	}
	if !strings.Contains(msg, "tls.crt") || !strings.Contains(msg, "stringData") {
		t.Fatalf("message %q does not name the field (data.tls.crt) nor say the value must be base64 "+
			"(or go in stringData); encoding/json's base64.CorruptInputError is passed through bare", msg)
	}
}

// TestErrorsNeverLeakSecretValues: DESIGN.md: Secret data never appears in an error.
func TestErrorsNeverLeakSecretValues(t *testing.T) {
	const secret = "c3VwZXJzZWNyZXQ" // not valid base64 on purpose (length)
	for _, content := range []string{
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  key: " + secret + "\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  key: [" + secret + "]\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  key: " + secret + "\n\tbad: tab\n",
	} {
		_, _, err := loadYAML(t, "s.yaml", content)
		if err == nil {
			t.Errorf("no error for %q", content)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q contains the Secret value", err)
		}
	}
}

// TestUnknownKindWithItemsField: objects of kinds the tool does not analyze are
// skipped whatever their shape; a CRD with a top-level "items" field that is not a
// list must not fail the load.
func TestUnknownKindWithItemsField(t *testing.T) {
	m, _, err := loadYAML(t, "crd.yaml", "apiVersion: example.com/v1\nkind: Inventory\nmetadata:\n  name: x\nitems: 5\n")
	if err != nil {
		t.Fatalf("unknown kind with a non-list top-level items field is an error, not skipped: %v", err)
	}
	if m.Skipped["example.com/v1/Inventory"] != 1 {
		t.Errorf("Skipped = %v", m.Skipped)
	}
}
