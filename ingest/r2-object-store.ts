/**
 * The snapshot sync's ObjectStore on Cloudflare R2, through `wrangler r2 object get/put/delete`: `--remote` for
 * the account of CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID, or `--local --persist-to DIR` for wrangler's
 * local storage, which needs no network (the tests use it to check the calls; the sync's `--local-store` uses
 * r2-local-store.ts, one runtime for all calls). Each call is one wrangler process.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ObjectStore } from './snapshot-sync.ts';

const run = promisify(execFile);

/** Tries of one wrangler call before its failure is reported. */
const WRANGLER_ATTEMPTS = 3;
/** What wrangler prints, locally and remotely, for a key that is not there. */
const MISSING_KEY = 'The specified key does not exist';

export interface WranglerR2Options {
  bucket: string;
  /** A folder for wrangler's local storage (`--local --persist-to`); omitted, the Cloudflare account (`--remote`). */
  persistTo?: string;
  /** The wrangler executable; default `wrangler` on PATH (npm scripts put node_modules/.bin first). */
  command?: string;
  /** Tries of one call before its failure is reported (default WRANGLER_ATTEMPTS). */
  attempts?: number;
}

export function createWranglerR2Store(opts: WranglerR2Options): ObjectStore {
  // Always explicit: wrangler 4 alone would pick local storage, and the daily job would keep nothing.
  const where = opts.persistTo === undefined ? ['--remote'] : ['--local', '--persist-to', resolve(opts.persistTo)];
  const objectPath = (key: string) => `${opts.bucket}/${key}`;

  /**
   * One wrangler call, tried up to three times: a wrangler process fails now and then for reasons of its own (a
   * busy machine, a dropped connection to R2: "Unspecified error" has been seen on a loaded CI machine). A key that
   * is not there is an answer, not a failure, and is never retried.
   */
  async function wrangler(action: 'get' | 'put' | 'delete', key: string, extra: string[] = []): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await run(opts.command ?? 'wrangler', ['r2', 'object', action, objectPath(key), ...extra, ...where], {
          env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
          maxBuffer: 4 * 1024 * 1024,
        });
        return;
      } catch (error) {
        const failure = new WranglerError(action, objectPath(key), error);
        if (attempt >= (opts.attempts ?? WRANGLER_ATTEMPTS) || failure.message.includes(MISSING_KEY)) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }

  return {
    get: (key) =>
      withTempFile(async (file) => {
        try {
          await wrangler('get', key, ['--file', file]);
        } catch (error) {
          if (error instanceof WranglerError && error.message.includes(MISSING_KEY)) return null;
          throw error;
        }
        return new Uint8Array(await readFile(file));
      }),
    put: (key, body) =>
      withTempFile(async (file) => {
        await writeFile(file, body);
        await wrangler('put', key, [
          '--file',
          file,
          '--content-type',
          key.endsWith('.gz') ? 'application/gzip' : 'application/json',
        ]);
      }),
    delete: (key) => wrangler('delete', key),
  };
}

/** A wrangler call that failed, with wrangler's own error line (colours removed) as the message. */
class WranglerError extends Error {
  override name = 'WranglerError';
  constructor(action: string, objectPath: string, cause: unknown) {
    const output = `${(cause as { stderr?: string }).stderr ?? ''}\n${(cause as { stdout?: string }).stdout ?? ''}`;
    const lines = output
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const reason = lines.find((line) => line.includes('[ERROR]')) ?? lines.at(-1) ?? (cause as Error).message;
    super(`wrangler r2 object ${action} ${objectPath} failed: ${reason.replace(/^✘\s*\[ERROR\]\s*/, '')}`, { cause });
  }
}

/** Runs `fn` with a path in a fresh temporary folder, removed afterwards (wrangler reads and writes files). */
async function withTempFile<T>(fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'tagdex-r2-'));
  try {
    return await fn(join(dir, 'object'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
