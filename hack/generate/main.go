// Command generate writes a large synthetic Gateway API configuration for
// benchmarks and scale tests (docs/performance.md), with internal/generate. It is
// a development tool, not part of the kubectl-gwtls binary.
//
//	go run ./hack/generate --seed 1 --gateways 1000 --listeners 20 --routes 100000 -o 100k.yaml
//
// With --crossing it writes instead the worst shape for attachment, every
// route attached to every listener of the Gateways it names (generate.Crossing):
//
//	go run ./hack/generate --crossing --gateways 200 --listeners 50 --routes 10000 --parent-refs 32 --hostnames 16
//
// With --list it writes the same objects as the items of one v1 List, the way
// `kubectl get -o yaml` dumps a cluster: one document the loader splits by
// item (docs/performance.md, "A List of 100k routes"):
//
//	go run ./hack/generate --seed 1 --gateways 1000 --listeners 20 --routes 100000 --list -o 100k-list.yaml
//
// The YAML's structure depends on the flags alone; only certificate and key bytes
// differ between runs.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/generate"
)

func main() {
	c := generate.Config{}
	flag.Int64Var(&c.Seed, "seed", 1, "seed of every choice; the same flags write the same structure")
	flag.IntVar(&c.Gateways, "gateways", 1000, "number of Gateways")
	flag.IntVar(&c.ListenersPerGateway, "listeners", 20, "listeners per Gateway")
	flag.IntVar(&c.Routes, "routes", 100000, "number of routes (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute)")
	output := flag.String("o", "", "write to FILE instead of standard output")
	crossing := flag.Bool("crossing", false, "write the worst shape for attachment: every route attached to every listener of the Gateways it names")
	parentRefs := flag.Int("parent-refs", 32, "with --crossing: Gateways each route names")
	hostnames := flag.Int("hostnames", 16, "with --crossing: wildcard hostnames of each route")
	list := flag.Bool("list", false, "write the objects as the items of one v1 List, as kubectl get -o yaml does")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "generate: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	if c.Gateways < 1 || c.ListenersPerGateway < 1 || c.Routes < 0 {
		fmt.Fprintln(os.Stderr, "generate: -gateways and -listeners must be at least 1, -routes at least 0")
		os.Exit(2)
	}
	if *crossing {
		c := generate.Crossing{Gateways: c.Gateways, ListenersPerGateway: c.ListenersPerGateway, Routes: c.Routes, ParentRefs: *parentRefs, Hostnames: *hostnames}
		if err := write(*output, func(w io.Writer) error { return generate.WriteCrossing(w, c) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if *list {
		if err := write(*output, func(w io.Writer) error { return writeList(w, c) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := run(c, *output); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(c generate.Config, output string) error {
	return write(output, func(w io.Writer) error { return generate.Write(w, c) })
}

// writeList writes the configuration c as one v1 List in block style, its
// items in the order of the multi-document stream, laid out as kubectl get
// -o yaml lays a List out: items second, each item's lines indented two
// spaces under its "- ". The stream's leading comment stays on top.
func writeList(w io.Writer, c generate.Config) error {
	var stream bytes.Buffer
	if err := generate.Write(&stream, c); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	text := stream.Bytes()
	for bytes.HasPrefix(text, []byte("#")) {
		eol := bytes.IndexByte(text, '\n') + 1
		bw.Write(text[:eol])
		text = text[eol:]
	}
	bw.WriteString("apiVersion: v1\nitems:\n")
	first := true // the next line starts an item
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		switch {
		case len(line) == 0:
			continue
		case string(line) == "---\n":
			first = true
			continue
		case first:
			bw.WriteString("- ")
			first = false
		case line[0] != '\n':
			bw.WriteString("  ")
		}
		bw.Write(line)
	}
	bw.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return bw.Flush()
}

// write writes to output ("" or "-": standard output).
func write(output string, to func(io.Writer) error) error {
	if output == "" || output == "-" {
		return to(os.Stdout)
	}
	f, err := os.Create(output)
	if err != nil {
		return err
	}
	if err := to(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", output, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", output, err)
	}
	return nil
}
