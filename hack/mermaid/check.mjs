// Parses Mermaid diagrams with Mermaid's own parser, as a renderer would before
// drawing them: node check.mjs FILE... prints "FILE: ok DIAGRAM-TYPE" or
// "FILE: error MESSAGE" per file and exits 1 if any failed. Mermaid needs a DOM
// to load; jsdom provides one. Used by cmd/gwtls TestGraphMermaidParses.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');

let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    const r = await mermaid.parse(readFileSync(file, 'utf8'));
    console.log(`${file}: ok ${r.diagramType}`);
  } catch (e) {
    failed = true;
    console.log(`${file}: error ${String(e.message).replaceAll('\n', ' ')}`);
  }
}
process.exit(failed ? 1 : 0);
