package render

import (
	"bufio"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// writeColumns writes rows, the header first, as newTable lays out one-line
// cells: tabs expanded and trimmed of surrounding white space, in left-aligned columns two spaces
// apart, with no trailing spaces or trailing empty lines. Widths are display widths (ANSI colour codes
// take none), as tablewriter measures them.
//
// The findings table is the one table that grows with the input (21,000 rows at
// 100k routes), and tablewriter's per-cell work there took 1.1 s and 250 MB; this
// takes a pass to measure and a pass to write. TestColumnsMatchTablewriter keeps
// the two layouts identical.
func writeColumns(w io.Writer, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	tab := strings.Repeat(" ", twwidth.TabWidth()) // tablewriter expands tabs so
	widths := make([]int, len(rows[0]))
	cells := make([][]int, len(rows)) // each cell's width, measured once
	for r, row := range rows {
		cells[r] = make([]int, len(row))
		for i, c := range row {
			row[i] = strings.TrimSpace(strings.ReplaceAll(c, "\t", tab))
			cells[r][i] = twwidth.Width(row[i])
			widths[i] = max(widths[i], cells[r][i])
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var line []byte
	empty := 0
	for r, row := range rows {
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
			empty++ // written only if a line with text follows, as trimWriter does
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
