package render

import (
	"encoding/json"
	"testing"

	goyaml "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

var yamlSeeds = []string{
	`{"a":1,"b":-0,"c":1.5,"d":1e3,"e":1.0,"f":12345678901234567890,"g":1e21,"h":-9223372036854775808,"i":0.000001}`,
	`{"metadata":{"name":"x","labels":{"a10":"1","a2":"true","z":"null"}},"spec":{"port":443,"list":[1,"2",true,null,{"k":"2026-01-01T00:00:00Z"}]}}`,
	`{"s":"multi\nline","t":"","u":"  lead","v":"- dash","w":": colon","x":"#hash","y":"yes","z":"0x1F"}`,
	`{"deep":{"a":[[[]]],"b":{}}}`,
}

// go-yaml on the decoded object prints what sigs.k8s.io/yaml prints for the JSON.
func TestYAMLValuesMatchSigsYAML(t *testing.T) {
	for _, s := range yamlSeeds {
		checkYAML(t, []byte(s))
	}
}

func FuzzYAMLValues(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkYAML(t, []byte(s)) })
}

func checkYAML(t *testing.T, js []byte) {
	t.Helper()
	var probe map[string]any
	if json.Unmarshal(js, &probe) != nil || probe == nil {
		return
	}
	want, err := yaml.JSONToYAML(js)
	if err != nil {
		return // not for us: go-yaml reads JSON that encoding/json accepts differently
	}
	m, err := decodeMap(js, true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := goyaml.Marshal(yamlValues(m))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("JSON %s\ngo-yaml: %s\nsigs.k8s.io/yaml: %s", js, got, want)
	}
}
