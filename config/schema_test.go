package config_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-gwtls/kubectl-gwtls/config"
)

const schemaFile = "../schema/config.schema.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("config.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validate checks a YAML document against the schema.
func validate(t *testing.T, s *jsonschema.Schema, doc []byte) error {
	t.Helper()
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// The schema's properties are exactly the keys the decoder accepts, it
// refuses every other key, and the two agree on which documents are valid.
func TestSchemaAndDecoderAgree(t *testing.T) {
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		AdditionalProperties *bool                      `json:"additionalProperties"`
		Properties           map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	var props []string
	for k := range top.Properties {
		props = append(props, k)
	}
	slices.Sort(props)
	if !slices.Equal(props, config.Keys()) {
		t.Errorf("schema properties %v, decoder keys %v", props, config.Keys())
	}
	if top.AdditionalProperties == nil || *top.AdditionalProperties {
		t.Error("the schema must refuse unknown keys (additionalProperties: false), as the decoder does")
	}

	s := compileSchema(t)
	for _, tc := range []struct {
		name, doc string
		valid     bool
		// decoderOnly: the decoder refuses what no schema can know (a pattern
		// that matches no rule of this version).
		decoderOnly bool
	}{
		{name: "every key", valid: true, doc: "apiVersion: gwtls.kubectl.dev/v1\nkind: Config\nrules: {\"certificate/*\": warning, route/NoParentRefs: off, \"*/Accepted/*\": on, ocg/MeshedRoute: info}\nexternal: [Secret, Service/shop/legacy]\nsupportedFeatures: [HTTPRoute]\ncontroller: example.com/gw\nwarnExpiry: 720h\nfailOn: none\nbaseline: b.json\n"},
		{name: "empty", valid: true, doc: ""},
		{name: "durations Go reads", valid: true, doc: "warnExpiry: 1h30m\n"},
		{name: "a zero duration", valid: true, doc: "warnExpiry: \"0\"\n"},
		{name: "an unknown key", doc: "fail-on: error\n"},
		{name: "a duration in days", doc: "warnExpiry: 30d\n"},
		{name: "a negative duration", doc: "warnExpiry: -1h\n"},
		{name: "a rule value", doc: "rules: {route/NoParentRefs: warn}\n"},
		{name: "a failOn", doc: "failOn: fatal\n"},
		{name: "an external with two parts", doc: "external: [Secret/infra]\n"},
		{name: "external as a string", doc: "external: Secret\n"},
		{name: "another kind", doc: "kind: Configuration\n"},
		{name: "an unknown rule", doc: "rules: {route/NoParents: off}\n", decoderOnly: true},
	} {
		schemaErr := validate(t, s, []byte(tc.doc))
		_, decodeErr := config.Parse(".gwtls.yaml", []byte(tc.doc))
		switch {
		case tc.valid && (schemaErr != nil || decodeErr != nil):
			t.Errorf("%s: valid, but schema: %v; decoder: %v", tc.name, schemaErr, decodeErr)
		case !tc.valid && decodeErr == nil:
			t.Errorf("%s: the decoder accepts %q", tc.name, tc.doc)
		case !tc.valid && !tc.decoderOnly && schemaErr == nil:
			t.Errorf("%s: the schema accepts %q", tc.name, tc.doc)
		case tc.decoderOnly && schemaErr != nil:
			t.Errorf("%s: the schema refuses %q: %v", tc.name, tc.doc, schemaErr)
		}
	}
}

// configExamples are the configuration files the project shows: fenced yaml
// blocks that open with "# .gwtls.yaml" in README.md and docs/, and the files
// named .gwtls.yaml or *.gwtls.yaml under testdata/.
func configExamples(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	docs, _ := filepath.Glob("../docs/*.md")
	for _, md := range append([]string{"../README.md"}, docs...) {
		data, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) != "```yaml" || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "# "+config.FileName) {
				continue
			}
			start := i + 1
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			}
			out[md+":"+strconv.Itoa(start+1)] = []byte(strings.Join(lines[start:i], "\n"))
		}
	}
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (d.Name() == config.FileName || strings.HasSuffix(d.Name(), config.FileName)) {
			data, rerr := os.ReadFile(path)
			out[path] = data
			return rerr
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every configuration the project shows is valid for the schema and for the
// tool (a testdata file named bad-*.gwtls.yaml is a mistake on purpose, and
// both must refuse it).
func TestConfigExamplesValidate(t *testing.T) {
	s := compileSchema(t)
	examples := configExamples(t)
	from := map[string]int{}
	for name, doc := range examples {
		source := strings.SplitN(strings.TrimPrefix(name, "../"), "/", 2)[0]
		from[strings.SplitN(source, ":", 2)[0]]++
		bad := strings.HasPrefix(filepath.Base(name), "bad-")
		schemaErr := validate(t, s, doc)
		_, decodeErr := config.Parse(name, doc)
		switch {
		case bad && (decodeErr == nil || schemaErr == nil):
			t.Errorf("%s: a mistake on purpose, but the tool (%v) or the schema (%v) accepts it", name, decodeErr, schemaErr)
		case !bad && (schemaErr != nil || decodeErr != nil):
			t.Errorf("%s: schema: %v; tool: %v", name, schemaErr, decodeErr)
		}
	}
	for _, source := range []string{"README.md", "docs", "testdata"} {
		if from[source] == 0 {
			t.Errorf("no configuration example found in %s (a fenced yaml block opening with \"# %s\")", source, config.FileName)
		}
	}
}
