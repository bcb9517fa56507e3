package render

import (
	"strings"
	"testing"
)

func TestMermaidTextEscapes(t *testing.T) {
	got := mermaidText(`a "quoted" [x] {y} <b> | #1 `+"`c`", "line two")
	want := "a #quot;quoted#quot; #91;x#93; #123;y#125; #lt;b#gt; #124; #35;1 #96;c#96;<br>line two"
	if got != want {
		t.Errorf("mermaidText:\n got %s\nwant %s", got, want)
	}
	for _, bad := range []string{`"`, "[", "]", "|", "<b>", "\n"} {
		if strings.Contains(strings.ReplaceAll(got, "<br>", ""), bad) {
			t.Errorf("%q left unescaped in %s", bad, got)
		}
	}
}

func TestDOTQuote(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"quotes and backslashes escaped, lines joined with DOT's \\n", []string{"a \"b\" \\ c", "d"}, `"a \"b\" \\ c\nd"`},
		{"a newline within a line is shown, not a line break", []string{"h\nx", "d"}, `"h\\nx\nd"`},
		{"an ESC sequence within a line is shown, not obeyed", []string{"h\x1b[31m"}, `"h\\x1b[31m"`},
	} {
		if got := dotQuote(tc.lines...); got != tc.want {
			t.Errorf("%s: dotQuote = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestGraphOutputsDeterministicIDs(t *testing.T) {
	g := Graph{
		Nodes: []GraphNode{{ID: "gw1", Kind: NodeGateway, Lines: []string{`Gateway "x"`}}, {ID: "r1", Kind: NodeRoute, Lines: []string{"HTTPRoute a/b"}, Bad: true}},
		Edges: []GraphEdge{{From: "r1", To: "gw1", Label: "Accepted=False: NoMatchingParent", Rejected: true}},
	}
	var dot, mmd strings.Builder
	if err := g.DOT(&dot); err != nil {
		t.Fatal(err)
	}
	if err := g.Mermaid(&mmd); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dot.String(), `gw1 [label="Gateway \"x\""`) || !strings.Contains(dot.String(), "r1 -> gw1 [label=\"Accepted=False: NoMatchingParent\", style=dashed") {
		t.Errorf("DOT:\n%s", dot.String())
	}
	for _, want := range []string{`gw1["Gateway #quot;x#quot;"]`, `r1 -.->|"Accepted=False: NoMatchingParent"| gw1`, "class r1 bad", "linkStyle 0 stroke:#cc0000"} {
		if !strings.Contains(mmd.String(), want) {
			t.Errorf("mermaid lacks %q:\n%s", want, mmd.String())
		}
	}
}

func TestMarkdownCellEscapes(t *testing.T) {
	if got, want := mdCell("*.example.com | <x>\nnext_one"), `\*.example.com \| &lt;x&gt;<br>next\_one`; got != want {
		t.Errorf("mdCell = %s, want %s", got, want)
	}
}
