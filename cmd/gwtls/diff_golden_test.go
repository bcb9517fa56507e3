package gwtls

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDiffGolden runs every case in testdata/diff: CASE/base.yaml and
// CASE/head.yaml are the two sides, each opening with what it proves (flags
// for both runs in a leading "# flags:" comment of base.yaml);
// CASE/diff.golden is `diff --base base.yaml -f head.yaml` in every output
// format (table, json, markdown, github), each followed by its exit code.
// Regenerate with go test ./cmd/gwtls -run Golden -update, then review the
// diff.
func TestDiffGolden(t *testing.T) {
	t.Chdir("../..")
	cases, err := filepath.Glob("testdata/diff/*/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no diff cases in testdata/diff")
	}
	for _, base := range cases {
		dir := filepath.Dir(base)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			head := filepath.Join(dir, "head.yaml")
			for _, side := range []string{base, head} {
				if !opensWithComment(t, side) {
					t.Errorf("%s does not open with a comment saying what it proves", side)
				}
			}
			compareGolden(t, filepath.Join(dir, "diff.golden"), diffGolden(t, base, head))
		})
	}
}

// diffGolden is the diff of two inputs in every output format.
func diffGolden(t *testing.T, base, head string) string {
	t.Helper()
	extra := goldenFlags(t, base)
	var out strings.Builder
	for _, format := range []string{"table", "json", "markdown", "github"} {
		args := append([]string{"diff", "--base", base, "-f", head, "--now", goldenNow, "--color", "never", "-o", format}, extra...)
		stdout, stderr, code := run(t, "", args...)
		if code == ExitError {
			t.Fatalf("diff -o %s: exit %d: %s", format, code, stderr)
		}
		fmt.Fprintf(&out, "$ %s\n%s%s--- exit %d\n", strings.Join(append([]string{"diff", "-o", format}, extra...), " "), stderr, stdout, code)
	}
	return out.String()
}

func opensWithComment(t *testing.T, path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.HasPrefix(string(data), "# ")
}

// TestEveryChangeKindIsProvenAndDocumented: every kind of change the change
// package declares appears in some case's golden output and in
// docs/output.md's table of kinds, so that a new kind comes with its case and
// its documentation.
func TestEveryChangeKindIsProvenAndDocumented(t *testing.T) {
	fset := token.NewFileSet()
	sources, err := filepath.Glob("../../change/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, name := range sources {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Kind" {
					continue
				}
				for _, v := range vs.Values {
					kinds = append(kinds, strings.Trim(v.(*ast.BasicLit).Value, `"`))
				}
			}
		}
	}
	if len(kinds) < 20 {
		t.Fatalf("found %d kinds in package change: the parse is wrong", len(kinds))
	}
	goldens, _ := filepath.Glob("../../testdata/diff/*/diff.golden")
	var all strings.Builder
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	docs, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		if !strings.Contains(all.String(), `"kind":"`+k+`"`) {
			t.Errorf("no case in testdata/diff proves %s", k)
		}
		if !strings.Contains(string(docs), "`"+k+"`") {
			t.Errorf("docs/output.md does not document %s", k)
		}
	}
}

// TestDiffJSONMatchesItsSchema: every case's -o json is valid against the
// published schema, docs/diff-v1.schema.json, and says what encoding/json
// says of the same report: the streamed writer adds and drops nothing.
func TestDiffJSONMatchesItsSchema(t *testing.T) {
	f, err := os.Open("../../docs/diff-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("diff-v1.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("diff-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	cases, _ := filepath.Glob("testdata/diff/*/base.yaml")
	for _, base := range cases {
		dir := filepath.Dir(base)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			args := append([]string{"diff", "--base", base, "-f", filepath.Join(dir, "head.yaml"), "--now", goldenNow, "-o", "json"}, goldenFlags(t, base)...)
			out, stderr, code := run(t, "", args...)
			if code == ExitError {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
			if err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if err := schema.Validate(v); err != nil {
				t.Errorf("does not match docs/diff-v1.schema.json: %v", err)
			}
		})
	}
}
