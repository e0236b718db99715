/**
 * What the served site and API say about themselves, on BOTH runtimes started with a limit other than the
 * build's (RATE_LIMIT_PER_HOUR=37, the shared build says 100): every page, /llms.txt, the API document and the MCP
 * tools state 37 and never 100 as the limit, and so does every language's home and API page, in its own words and
 * digits. And the requests Node's parser would refuse bare, or route to the site: a missing Host, an unmet Expect
 * (the envelope and CORS), an absolute-form target (served by its path).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { linkEnglishSite } from '../helpers/site-build.ts';
import { RUNTIMES, startRuntime, type RuntimeUnderTest } from '../helpers/runtimes.ts';
import { httpGet } from '../helpers/http.ts';
import { fixtureDataset, HINDI_VIDEO_ID } from '../fixtures/upstream-dataset.ts';
import { ENDPOINTS } from '../../functions/endpoints.ts';
import { PREFIXED_LOCALES } from '../../src/i18n/locales.ts';
import { formatInteger } from '../../src/lib/format-number.ts';
import { rateLimitPhrase } from '../../src/lib/public-facts.ts';

const site = await sharedSite();

const LIMIT = 37;
const STATED = `${LIMIT} requests per hour per address`;
/** Any statement of another limit, in the forms src/lib/public-facts.ts writes or the old texts wrote. */
const OTHER_LIMIT = /\b(?!37\b)\d+ requests per (?:rolling )?hour|\b(?!37;)\d+;w=3600|limit of \d+ an hour|\d+-an-hour/;

/** Every other language's pages that state the limit: its home page and its API page. */
const TRANSLATED = PREFIXED_LOCALES.flatMap((locale) =>
  ['/', '/api/'].map((page) => ({ lang: locale.tag, path: `/${locale.path}${page}` })),
);
/** The build's limit in every digit system: ASCII, Devanagari, Bengali, Arabic-Indic, Extended Arabic-Indic. */
const BUILDS_LIMIT = ['100', '१००', '১০০', '١٠٠', '۱۰۰'];

/** `lang`'s statement of the build's limit, written in any of those digit systems. */
function statesBuildsLimit(lang: string): RegExp {
  const [before = '', after = ''] = rateLimitPhrase(100, lang).split(formatInteger(100, lang));
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${literal(before)}(?:${BUILDS_LIMIT.join('|')})${literal(after)}`);
}

// The English site and the translated pages above (the runtimes start faster without the rest: site-build.ts).
const distRoot = await mkdtemp(join(tmpdir(), 'tagdex-stated-'));
const distDir = join(distRoot, 'dist');
await linkEnglishSite(
  site.distDir,
  distDir,
  TRANSLATED.map(({ path }) => `${path}index.html`),
);
afterAll(() => rm(distRoot, { recursive: true, force: true }));

/** One request written byte for byte to a socket; the whole answer once the server closes. */
function rawRequest(baseUrl: string, head: string): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), head: text.slice(0, at).toLowerCase(), body: text.slice(at + 4) });
    });
    socket.write(head);
  });
}

describe.each(RUNTIMES)('the %s runtime configured with RATE_LIMIT_PER_HOUR=37', (name) => {
  let runtime: RuntimeUnderTest;

  beforeAll(async () => {
    runtime = await startRuntime(name, { dataset: fixtureDataset, site, distDir, rateLimitPerHour: LIMIT });
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it.each(['/', '/api/', '/llms.txt', '/api/v1/openapi.json'])('%s states 37 and no other limit', async (path) => {
    // fetch asks for and decodes br and gzip: the compressed forms state it too.
    const answer = await fetch(runtime.baseUrl + path);
    const body = await answer.text();
    expect(answer.status).toBe(200);
    expect(body).toContain(STATED);
    expect(body).not.toMatch(OTHER_LIMIT);
  });

  it.each(TRANSLATED)(
    "$path states 37 in its language's words and digits, and never the build's 100",
    async ({ lang, path }) => {
      const answer = await fetch(runtime.baseUrl + path);
      const body = await answer.text();
      expect(answer.status).toBe(200);
      expect(body).toContain(rateLimitPhrase(LIMIT, lang));
      expect(body).not.toMatch(statesBuildsLimit(lang));
      // The API page's reference is English in every language.
      expect(body).not.toMatch(OTHER_LIMIT);
      // Asked again (the Worker then answers from its restated copy): the same text.
      expect(await (await fetch(runtime.baseUrl + path)).text()).toBe(body);
    },
  );

  it('serves the translated pages with the headers of the English home page', async () => {
    const english = await fetch(`${runtime.baseUrl}/`);
    await english.arrayBuffer();
    for (const { path } of TRANSLATED) {
      const answer = await fetch(runtime.baseUrl + path);
      await answer.arrayBuffer();
      for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
        expect(answer.headers.get(name), `${path} ${name}`).toBe(english.headers.get(name));
      }
      // Restated, so not the build's file: its ETag is the restated text's (Node) or none (the Worker).
      expect(answer.headers.has('etag'), path).toBe(english.headers.has('etag'));
    }
  });

  it('the API page states the policy header an answer carries', async () => {
    const page = await httpGet(`${runtime.baseUrl}/api/`);
    const answer = await httpGet(`${runtime.baseUrl}/api/v1/categories?region=IN`, { from: '127.0.0.3' });
    expect(answer.headers['ratelimit-policy']).toBe(`${LIMIT};w=3600`);
    expect(page.body).toContain(`RateLimit-Policy: ${LIMIT};w=3600`);
  });

  it('every MCP tool in tools/list states 37, and the instructions name every tool', async () => {
    const post = (body: unknown) =>
      fetch(`${runtime.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ result: Record<string, unknown> }>);
    const listed = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools = listed.result.tools as { name: string; description: string }[];
    expect(tools).toHaveLength(ENDPOINTS.length);
    for (const tool of tools) {
      expect(tool.description).toContain(STATED);
      expect(tool.description).not.toMatch(OTHER_LIMIT);
    }
    const started = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    const instructions = started.result.instructions as string;
    for (const tool of tools) expect(instructions).toContain(tool.name);
  });

  it('serves an absolute-form request target by its path (RFC 9112 §3.2.2)', async () => {
    const { host } = new URL(runtime.baseUrl);
    const target = `http://${host}/api/v1/video?url=${HINDI_VIDEO_ID}`;
    const answer = await rawRequest(
      runtime.baseUrl,
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, data: { id: HINDI_VIDEO_ID } });
  });

  // Node only: these are refusals of Node's HTTP parser, which functions/node shapes into the envelope; the
  // Worker's requests arrive already parsed by workerd.
  if (name === 'node') {
    it('refuses HTTP/1.1 without Host with the envelope and CORS', async () => {
      const answer = await rawRequest(runtime.baseUrl, 'GET /api/v1/video?url=x HTTP/1.1\r\nConnection: close\r\n\r\n');
      expect(answer.status).toBe(400);
      expect(answer.head).toContain('access-control-allow-origin: *');
      expect(answer.head).toContain('x-content-type-options: nosniff');
      const envelope = JSON.parse(answer.body) as { ok: boolean; error: string };
      expect(envelope.ok).toBe(false);
      expect(envelope.error).toContain('Host');
    });

    it('refuses an unmet Expect with the envelope and CORS', async () => {
      const { host } = new URL(runtime.baseUrl);
      const answer = await rawRequest(
        runtime.baseUrl,
        `GET /api/v1/video?url=x HTTP/1.1\r\nHost: ${host}\r\nExpect: 999-nope\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(417);
      expect(answer.head).toContain('access-control-allow-origin: *');
      const envelope = JSON.parse(answer.body) as { ok: boolean; error: string };
      expect(envelope.ok).toBe(false);
      expect(envelope.error).toContain('999-nope');
    });
  }

  it('/healthz carries nosniff like every other JSON answer', async () => {
    const answer = await httpGet(`${runtime.baseUrl}/healthz`);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });
});
