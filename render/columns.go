package render

import (
	"bufio"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// writeColumns writes rows, the header first, as a borderless table of
// left-aligned columns two spaces apart: the layout of every table this tool
// prints. A cell, tabs expanded, is trimmed of surrounding white space and may
// hold several lines (blank ones are dropped); lines have no trailing spaces and
// the table no trailing empty lines. Widths are display widths (ANSI colour
// codes take none, wide characters two), measured by tablewriter's twwidth.
//
// This was tablewriter's layout; TestColumnsMatchTablewriter and
// FuzzColumnsMatchTablewriter keep it byte for byte. The tables that grow with
// the input (findings, the DNS and certificate plan, simulate --all) have tens of
// thousands of rows on a large input, where tablewriter's per-cell work would
// dominate the command; this measures every cell once and writes each line
// once.
func writeColumns(w io.Writer, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	tab := strings.Repeat(" ", twwidth.TabWidth()) // as tablewriter expands tabs
	lines := make([][]string, 0, len(rows))        // rows, a row of multi-line cells as several
	for _, in := range rows {
		row := make([]string, len(in))
		height := 1
		for i, c := range in {
			row[i] = strings.TrimSpace(strings.ReplaceAll(c, "\t", tab))
			if strings.Contains(row[i], "\n") {
				height = max(height, len(cellLines(row[i])))
			}
		}
		if height == 1 {
			lines = append(lines, row)
			continue
		}
		split := make([][]string, height)
		for k := range split {
			split[k] = make([]string, len(row))
		}
		for i, c := range row {
			for k, l := range cellLines(c) {
				split[k][i] = l
			}
		}
		lines = append(lines, split...)
	}

	n := 0
	for _, row := range lines {
		n = max(n, len(row))
	}
	widths := make([]int, n)
	cells := make([][]int, len(lines)) // each cell's width, measured once
	for r, row := range lines {
		cells[r] = make([]int, len(row))
		for i, c := range row {
			cells[r][i] = cellWidth(c)
			widths[i] = max(widths[i], cells[r][i])
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	empty := 0
	for r, row := range lines {
		line = line[:0]
		for i, c := range row {
			if i > 0 {
				line = append(line, "  "...)
			}
			line = append(line, c...)
			for pad := widths[i] - cells[r][i]; pad > 0; pad-- {
				line = append(line, ' ')
			}
		}
		for len(line) > 0 && line[len(line)-1] == ' ' {
			line = line[:len(line)-1]
		}
		if len(line) == 0 {
			empty++ // written only if a line with text follows
			continue
		}
		for ; empty > 0; empty-- {
			bw.WriteByte('\n')
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// cellLines are a cell's lines, without blank ones.
func cellLines(c string) []string {
	var out []string
	for l := range strings.SplitSeq(c, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// cellWidth is twwidth.Width(c): the length of printable ASCII, whose
// characters are each one column wide (twwidth strips nothing from text
// without an ESC and measures none of them otherwise), measured without
// twwidth's lock and cache.
func cellWidth(c string) int {
	if printableASCII(c) {
		return len(c)
	}
	return twwidth.Width(c)
}
