/**
 * README.md tells the truth about the code: its endpoint table lists ENDPOINTS, its MCP tool table lists what
 * tools/list answers, and its counts of endpoints and tools are the real ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../functions/endpoints.ts';
import { toolList, TOOLS } from '../../functions/mcp/tools.ts';
import { countInWords } from '../../src/lib/public-facts.ts';
import { ACCESS_LOG_FLUSH } from '../../src/lib/limits.ts';
import { TARGET_MEMO_BOUNDS } from '../../src/lib/target-memo.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** The README and the file it leaves the Worker's measurements to: a figure stated in either must be the code's. */
const DOCS = [README, readFileSync(new URL('../../bench/WORKER.md', import.meta.url), 'utf8')].join('\n');
const SCRIPTS = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The rows of the Markdown table whose header row starts with `header`, as arrays of trimmed cells. */
function tableAfter(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${header} |`));
  if (start < 0) throw new Error(`README has no table headed "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, '');

describe('README.md', () => {
  it('lists every endpoint of the table and no other', () => {
    const paths = tableAfter(README, 'Endpoint').map((row) => unquote(row[0]!));
    expect(paths.toSorted()).toEqual(ENDPOINTS.map((endpoint) => endpoint.path).toSorted());
  });

  it('lists the tools tools/list answers, each with its endpoint', () => {
    const rows = tableAfter(README, 'Tool').map((row) => [unquote(row[0]!), unquote(row[1]!)]);
    const listed = toolList(100).tools.map((tool) => tool.name);
    expect(rows.map(([name]) => name)).toEqual(listed);
    expect(rows).toEqual(TOOLS.map((tool) => [tool.name, tool.endpoint.path]));
  });

  it('counts the endpoints and tools truly', () => {
    const count = countInWords(ENDPOINTS.length);
    expect(README).toContain(`It is ${count} read-only JSON endpoints`);
    expect(README).toContain(`the same\n${count} as tools`);
    for (let wrong = 1; wrong <= 12; wrong++) {
      if (wrong === ENDPOINTS.length) continue;
      expect(README).not.toMatch(new RegExp(`\\b${countInWords(wrong)} (?:read-only )?(?:JSON )?endpoints`, 'i'));
    }
  });

  it('states the access log’s flush size as ACCESS_LOG_FLUSH has it, and no other', () => {
    const sizes = [...DOCS.matchAll(/(?:once|when) (\d+) KB (?:wait|are waiting)/g)].map((match) => Number(match[1]));
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(sizes)).toEqual(new Set([ACCESS_LOG_FLUSH.bytes / 1024]));
  });

  it('states the size of MCP tools/list’s listing, and of title_score’s output schema, as the code makes them', () => {
    const kb = (value: unknown) => Math.round(Buffer.byteLength(JSON.stringify(value)) / 1000);
    const listing = toolList(100);
    const titleScore = listing.tools.find((tool) => tool.name === 'title_score')!;
    expect(DOCS).toContain(`The listing is ${kb(listing)} KB of JSON.`);
    expect(DOCS).toContain(`${kb(titleScore.outputSchema)} KB for \`title_score\``);
  });

  it('quotes the serve script as package.json has it, flags and environment included', () => {
    const row = tableAfter(README, 'Script').find((cells) => cells[0] === '`npm run serve`');
    expect(row?.[1]).toContain(`\`${SCRIPTS['serve']}\``);
  });

  it('states how many once-asked keys the response cache’s admission remembers, as TARGET_MEMO_BOUNDS has it', () => {
    expect(README).toContain(`kept as 30-bit hashes, at most ${TARGET_MEMO_BOUNDS.entries.toLocaleString('en-US')})`);
  });

  it('the table check can fail: a table missing a row differs', () => {
    const shortened = README.replace(/^\| `categories` \| `\/api\/v1\/categories` \|\n/m, '');
    expect(tableAfter(shortened, 'Tool')).toHaveLength(TOOLS.length - 1);
  });
});
