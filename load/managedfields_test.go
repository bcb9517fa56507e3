package load

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

var managedFieldsSeeds = []string{
	`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a","namespace":"b","managedFields":[{"manager":"kubectl","fieldsV1":{"f:data":{}}}],"uid":"x"},"data":{}}`,
	`{"metadata":{"managedFields":[{"manager":"m"}],"name":"first"}}`,
	`{"metadata":{"name":"last","managedFields":[]}}`,
	`{"metadata":{"managedFields":null}}`,
	`{ "metadata" : { "name" : "s" , "managedFields" : [ {"a":"}]\"{"} ] } , "spec" : {} }`,
	`{"spec":{"metadata":{"managedFields":1}},"metadata":{"annotations":{"managedFields":"kept"}}}`,
	`{"metadata":"not an object"}`,
	`{"kind":"x"}`,
	`[]`,
}

func TestWithoutManagedFields(t *testing.T) {
	for _, in := range managedFieldsSeeds {
		checkWithoutManagedFields(t, []byte(in))
	}
	got := string(withoutManagedFields([]byte(managedFieldsSeeds[0])))
	want := `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a","namespace":"b","uid":"x"},"data":{}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func FuzzWithoutManagedFields(f *testing.F) {
	for _, s := range managedFieldsSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) { checkWithoutManagedFields(t, []byte(in)) })
}

// checkWithoutManagedFields holds withoutManagedFields to encoding/json: for any
// valid object (without repeated keys, where encoding/json keeps the last and the
// scanner cuts the first) the result is valid JSON equal to the input with
// metadata.managedFields deleted, and anything else comes back unchanged.
func checkWithoutManagedFields(t *testing.T, in []byte) {
	t.Helper()
	out := withoutManagedFields(bytes.Clone(in))
	if !json.Valid(in) {
		return
	}
	if !json.Valid(out) {
		t.Fatalf("withoutManagedFields(%s) = %s: not valid JSON", in, out)
	}
	var want map[string]any
	if json.Unmarshal(in, &want) != nil || want == nil {
		if !bytes.Equal(in, out) {
			t.Fatalf("withoutManagedFields changed a non-object: %s -> %s", in, out)
		}
		return
	}
	if repeatsKeys(in) {
		return
	}
	if md, ok := want["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("withoutManagedFields(%s) = %s", in, out)
	}
}

// repeatsKeys reports whether the object or its metadata repeats a key.
func repeatsKeys(js []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(js, &top) != nil {
		return false
	}
	if len(objectKeys(js)) != len(top) {
		return true
	}
	var md map[string]json.RawMessage
	return json.Unmarshal(top["metadata"], &md) == nil && len(objectKeys(top["metadata"])) != len(md)
}

// objectKeys lists the keys of a JSON object in order, repeats included.
func objectKeys(raw []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, t.(string))
		var value json.RawMessage
		if dec.Decode(&value) != nil {
			return keys
		}
	}
	return keys
}
