package drift

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gatewayAPIConstants parses sigs.k8s.io/gateway-api apis/v1 and returns its
// string constants by type name, each as name, value and file.
func gatewayAPIConstants(t *testing.T) map[string][]constant {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		t.Skipf("cannot locate sigs.k8s.io/gateway-api: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "apis", "v1")
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*_types.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources in %s: %v", dir, err)
	}
	consts := map[string][]constant{}
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
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
				typ, ok := vs.Type.(*ast.Ident)
				if !ok || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, name := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					consts[typ.Name] = append(consts[typ.Name], constant{name.Name, v, filepath.Base(path)})
				}
			}
		}
	}
	return consts
}

type constant struct{ name, value, file string }

// The Go types of gateway-api's condition types and reasons, and the status
// entry each describes.
var conditionGoTypes = map[string]entryKind{
	"GatewayConditionType": gatewayEntry, "GatewayConditionReason": gatewayEntry,
	"ListenerConditionType": listenerEntry, "ListenerConditionReason": listenerEntry,
	"ListenerSetConditionType": listenerSetEntry, "ListenerSetConditionReason": listenerSetEntry,
	"ListenerEntryConditionType": listenerSetListenerEntry, "ListenerEntryConditionReason": listenerSetListenerEntry,
	"RouteConditionType": routeParentEntry, "RouteConditionReason": routeParentEntry,
	"PolicyConditionType": policyAncestorEntry, "PolicyConditionReason": policyAncestorEntry,
	"GatewayClassConditionType": gatewayClassEntry, "GatewayClassConditionReason": gatewayClassEntry,
}

// TestVocabularyIsGatewayAPIs: the vocabulary holds every condition type and
// reason constant gateway-api declares, each for the status entry its Go type
// describes, and every citation names a constant of that value in that file.
// Upgrading gateway-api with a new reason fails here until it is added.
func TestVocabularyIsGatewayAPIs(t *testing.T) {
	consts := gatewayAPIConstants(t)
	for goType, k := range conditionGoTypes {
		cs := consts[goType]
		if len(cs) == 0 {
			t.Errorf("gateway-api declares no %s constant: is the table out of date?", goType)
		}
		for _, c := range cs {
			v := vocabularies[k]
			if strings.HasSuffix(goType, "ConditionType") {
				if !v.types[c.value] {
					t.Errorf("%s %s (%q) is not a condition type of its entry", goType, c.name, c.value)
				}
				continue
			}
			if _, ok := v.reasons[c.value]; !ok {
				t.Errorf("%s %s (%q) is not a reason of its entry", goType, c.name, c.value)
			}
			if !inVocabulary(c.value) {
				t.Errorf("reason %s (%q) is outside the vocabulary", c.name, c.value)
			}
		}
	}
	declared := map[string]constant{}
	for _, cs := range consts {
		for _, c := range cs {
			declared[c.file+": "+c.name] = c
		}
	}
	for k, v := range vocabularies {
		for reason, cite := range v.reasons {
			c, ok := declared[cite]
			if !ok || c.value != reason {
				t.Errorf("entry %d: reason %q cites %q, which gateway-api does not declare with that value", k, reason, cite)
			}
		}
	}
}
