package admit

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Release is the Gateway API release whose CRDs are built in: the version of
// sigs.k8s.io/gateway-api in go.mod (TestBuiltinCRDsMatchModule keeps them equal).
const Release = "v1.6.3"

// Channel is a Gateway API release channel. The experimental channel's CRDs serve
// every field and version the standard channel's do, and more.
type Channel string

const (
	Standard     Channel = "standard"
	Experimental Channel = "experimental"
)

// builtin holds the CRDs of config/crd/{standard,experimental} of Release,
// without the ValidatingAdmissionPolicy and the kustomization that sit beside
// them (they are not CRDs). Each is the JSON of what the release's YAML file
// decodes to, less its schemas' descriptions, which nothing reads: a run
// decodes the CRD of each kind it meets, and the YAML took 15 times as long
// (TestBuiltinCRDsMatchModule holds them to the module's files, and with
// -update writes them).
//
//go:embed crds
var builtin embed.FS

// CRDs is a set of CustomResourceDefinitions and where they came from.
type CRDs struct {
	// Origin says where the CRDs came from, for the output header: "built in",
	// "from DIR", or "from the cluster".
	Origin string
	crds   []*crd
	// standard is, for the built-in experimental channel, the built-in standard
	// channel: an object only the experimental channel admits gets a warning.
	standard *CRDs
}

// crd is one CustomResourceDefinition: its header, and the whole definition.
// A built-in CRD is decoded on first use: the files are 2.5 MB of YAML, and a
// manifest uses few kinds.
type crd struct {
	header crdHeader
	def    func() (*apiextensionsv1.CustomResourceDefinition, error)
}

// crdHeader is what an Admitter needs of a CRD before it validates an object.
type crdHeader struct {
	Metadata struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Group string                                        `json:"group"`
		Names apiextensionsv1.CustomResourceDefinitionNames `json:"names"`
		Scope apiextensionsv1.ResourceScope                 `json:"scope"`
	} `json:"spec"`
}

func eager(def *apiextensionsv1.CustomResourceDefinition) *crd {
	c := &crd{def: func() (*apiextensionsv1.CustomResourceDefinition, error) { return def, nil }}
	c.header.Metadata.Name, c.header.Metadata.Annotations = def.Name, def.Annotations
	c.header.Spec.Group, c.header.Spec.Names, c.header.Spec.Scope = def.Spec.Group, def.Spec.Names, def.Spec.Scope
	return c
}

// lazy reads the header of the built-in CRD file at name, which comes before
// the versions (the bulk of the file: encoding/json writes a
// CustomResourceDefinitionSpec's group, names and scope before its versions),
// and decodes the whole file on first use. Until then only the header is
// read: a manifest uses few kinds.
func lazy(name string) (*crd, error) {
	head, err := builtinHead(name)
	if err != nil {
		return nil, fmt.Errorf("built-in CRD %s: %w", name, err)
	}
	c := &crd{}
	if err := json.Unmarshal(head, &c.header); err != nil {
		return nil, fmt.Errorf("built-in CRD %s: %w", name, err)
	}
	c.def = sync.OnceValues(func() (*apiextensionsv1.CustomResourceDefinition, error) {
		data, err := builtin.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("built-in CRDs: %w", err)
		}
		def := new(apiextensionsv1.CustomResourceDefinition)
		if err := json.Unmarshal(data, def); err != nil {
			return nil, fmt.Errorf("built-in CRD %s: %w", name, err)
		}
		if def.Kind != "CustomResourceDefinition" || def.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
			return nil, fmt.Errorf("built-in CRD %s: %s %s, not a CustomResourceDefinition", name, def.APIVersion, def.Kind)
		}
		return def, nil
	})
	return c, nil
}

// builtinHead returns the built-in CRD file at name up to its versions, as a
// JSON object: the file's own text, closed after spec's scope.
func builtinHead(name string) ([]byte, error) {
	f, err := builtin.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	versions := []byte(`,"versions":[`)
	var buf []byte
	chunk := make([]byte, 4096)
	for {
		n, err := f.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if head, _, ok := bytes.Cut(buf, versions); ok {
			return append(head, "}}"...), nil
		}
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no versions")
		}
		if err != nil {
			return nil, err
		}
	}
}

// Builtin returns the CRDs of the given channel of Release. The experimental
// channel carries the standard channel with it, so that its Admitter warns about
// objects a cluster with standard-channel CRDs would reject.
func Builtin(ch Channel) (CRDs, error) {
	dir := path.Join("crds", Release, string(ch))
	entries, err := fs.ReadDir(builtin, dir)
	if err != nil {
		return CRDs{}, fmt.Errorf("built-in CRDs: no %s channel: %w", ch, err)
	}
	crds := CRDs{Origin: "built in"}
	for _, e := range entries {
		c, err := lazy(path.Join(dir, e.Name()))
		if err != nil {
			return CRDs{}, err
		}
		crds.crds = append(crds.crds, c)
	}
	if ch == Experimental {
		std, err := Builtin(Standard)
		if err != nil {
			return CRDs{}, err
		}
		crds.standard = &std
	}
	return crds, nil
}

// FromDir reads every CustomResourceDefinition in the YAML and JSON files of dir
// and its subdirectories (a release's config/crd/experimental, or the
// standard-install.yaml of a release). Other documents are skipped, as a
// release's kustomization.yaml and ValidatingAdmissionPolicy are. A directory
// without a Gateway API CRD is an error that says what it holds instead: it
// is not the directory the user meant, and holding nothing to those CRDs
// would admit every object unchecked.
func FromDir(dir string) (CRDs, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
			if !d.IsDir() {
				files = append(files, p)
			}
		}
		return nil
	})
	if err != nil {
		return CRDs{}, fmt.Errorf("reading CRDs: %w", err)
	}
	sort.Strings(files)
	crds := CRDs{Origin: "from " + dir}
	skipped := map[string]int{}
	gatewayAPI := false
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return CRDs{}, fmt.Errorf("reading CRDs: %w", err)
		}
		defs, others, err := parseCRDs(data)
		if err != nil {
			return CRDs{}, fmt.Errorf("reading CRDs from %s: %w", f, err)
		}
		for _, def := range defs {
			crds.crds = append(crds.crds, eager(def))
			gatewayAPI = gatewayAPI || IsGatewayAPIGroup(def.Spec.Group)
		}
		for _, k := range others {
			skipped[k]++
		}
	}
	const want = "give the directory of a Gateway API release's CRDs (config/crd/standard or config/crd/experimental)"
	switch {
	case len(crds.crds) == 0:
		return CRDs{}, fmt.Errorf("no CustomResourceDefinition in %s (%s, %s): %s", dir, countOf(len(files), "YAML or JSON file"), documentsOf(skipped), want)
	case !gatewayAPI:
		groups := map[string]int{}
		for _, c := range crds.crds {
			groups[c.header.Spec.Group]++
		}
		return CRDs{}, fmt.Errorf("no Gateway API CustomResourceDefinition in %s (%s of other groups: %s): %s", dir, countOf(len(crds.crds), "CRD"), countsOf(groups), want)
	}
	return crds, nil
}

// IsGatewayAPIGroup reports whether group is one of Gateway API's CRDs' API
// groups (the x-k8s.io group holds experimental kinds such as XListenerSet):
// what a cluster enforces on their objects is what those CRDs say.
func IsGatewayAPIGroup(group string) bool {
	return group == "gateway.networking.k8s.io" || group == "gateway.networking.x-k8s.io"
}

// documentsOf says what a directory held besides CRDs: "no document", or
// "3 other documents: Deployment (2), no kind (1)".
func documentsOf(skipped map[string]int) string {
	n := 0
	for _, c := range skipped {
		n += c
	}
	if n == 0 {
		return "no document"
	}
	return countOf(n, "other document") + ": " + countsOf(skipped)
}

// countsOf lists counts by name, sorted: "Deployment (2), no kind (1)".
func countsOf(m map[string]int) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		names[i] = fmt.Sprintf("%s (%d)", k, m[k])
	}
	return strings.Join(names, ", ")
}

func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FromObjects takes CRDs read from an API server, as cluster mode lists them.
// origin says where they came from ("from the cluster", or from which context).
func FromObjects(origin string, defs []apiextensionsv1.CustomResourceDefinition) CRDs {
	crds := CRDs{Origin: origin}
	for i := range defs {
		crds.crds = append(crds.crds, eager(defs[i].DeepCopy()))
	}
	return crds
}

// parseCRDs decodes the CustomResourceDefinitions of a multi-document YAML or JSON
// stream, skipping documents of other kinds; skipped names each one's kind
// ("no kind" for one without, such as a kustomization.yaml), for FromDir to say
// what it found when it found no Gateway API CRD.
func parseCRDs(data []byte) (out []*apiextensionsv1.CustomResourceDefinition, skipped []string, err error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var doc json.RawMessage
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, skipped, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if len(bytes.TrimSpace(doc)) == 0 || bytes.Equal(bytes.TrimSpace(doc), []byte("null")) {
			continue // an empty document, between two "---"
		}
		var head struct{ APIVersion, Kind string }
		if err := json.Unmarshal(doc, &head); err != nil {
			return nil, nil, err
		}
		if head.Kind != "CustomResourceDefinition" || head.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
			kind := head.Kind
			if kind == "" {
				kind = "no kind"
			}
			skipped = append(skipped, kind)
			continue
		}
		crd := new(apiextensionsv1.CustomResourceDefinition)
		if err := json.Unmarshal(doc, crd); err != nil {
			return nil, nil, fmt.Errorf("CustomResourceDefinition: %w", err)
		}
		out = append(out, crd)
	}
}

// String says which CRDs these are, for an output header: "Gateway API v1.6.3
// experimental channel, built in", or "from DIR" when the CRDs do not carry
// the bundle-version and channel annotations of a Gateway API release.
func (c CRDs) String() string {
	seen := map[string]bool{}
	var bundles []string
	for _, crd := range c.crds {
		v := crd.header.Metadata.Annotations[bundleVersionAnnotation]
		ch := crd.header.Metadata.Annotations[channelAnnotation]
		if v == "" || ch == "" {
			continue
		}
		b := fmt.Sprintf("%s %s channel", v, ch)
		if !seen[b] {
			seen[b] = true
			bundles = append(bundles, b)
		}
	}
	sort.Strings(bundles)
	if len(bundles) == 0 {
		return "CRDs " + c.Origin
	}
	return "Gateway API " + strings.Join(bundles, " and ") + ", " + c.Origin
}

// The annotations every Gateway API release puts on its CRDs.
const (
	bundleVersionAnnotation = "gateway.networking.k8s.io/bundle-version"
	channelAnnotation       = "gateway.networking.k8s.io/channel"
)

// Definitions returns the CustomResourceDefinitions, to be read, not changed.
func (c CRDs) Definitions() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	out := make([]*apiextensionsv1.CustomResourceDefinition, len(c.crds))
	for i, crd := range c.crds {
		def, err := crd.def()
		if err != nil {
			return nil, err
		}
		out[i] = def
	}
	return out, nil
}
