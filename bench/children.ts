/**
 * Starts the servers under test in child processes (bench/server-process.ts) and reads their resident memory
 * and open file descriptors from /proc, the way an operator would watch a production process.
 */
import { fork } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { build } from 'esbuild';
import { SERVER_BUNDLE_OPTIONS, serveCommand, type ServeCommand } from '../ingest/server-bundle.ts';
import { PROJECT_ROOT } from './bench-site.ts';

/** What one child hosts. */
export type ChildSpec =
  | { role: 'bare'; status: number; headers: Record<string, string>; body: string /* base64 */ }
  /** A peer framework serving the same answers from a Map, path → status, headers, bytes; logging nothing. */
  | {
      role: 'fastify' | 'hono';
      answers: Record<string, { status: number; headers: Record<string, string>; body: string /* base64 */ }>;
    }
  | { role: 'upstream'; date: string; coldVideos: number; latencyMs: number }
  /**
   * The floor of any Node server that looks a video up upstream: bare node:http passing `/api/v1/video?url=ID`
   * to the upstream's `videos.list` through an undici Pool, and its bytes back, with no other work.
   */
  | { role: 'proxy'; upstreamBaseUrl: string }
  | {
      role: 'tagdex';
      upstreamBaseUrl: string;
      buildDir: string;
      distDir: string;
      /** 0 disables the limiter, as RATE_LIMIT_PER_HOUR=0 does. */
      rateLimitPerHour: number;
      trustProxy: number;
      /** false: nothing is stored in the 10-minute response cache, so every request takes the router path. */
      responseCache: boolean;
    };

export type ChildRequest = { type: 'report' | 'gc'; id: number };
export type ChildReply =
  { type: 'ready'; ready: Record<string, unknown> } | { type: 'report'; id: number; report: Record<string, unknown> };

export interface RunningChild {
  pid: number;
  /** What the child said when it was listening: `port`, or `baseUrl` for the upstream. */
  ready: Record<string, unknown>;
  /** The role's counters (upstream calls and units; response-cache entries). */
  report(): Promise<Record<string, unknown>>;
  /** A full garbage collection in the child (started with `--expose-gc`), so RSS readings compare like with like. */
  collectGarbage(): Promise<void>;
  stop(): Promise<void>;
}

const SERVER_PROCESS = fileURLToPath(new URL('./server-process.ts', import.meta.url));

let bundled: Promise<string> | undefined;
/** This tree's bench/server-process.ts bundled (bundleServerProcess), once per run. */
function serverProcessBundle(): Promise<string> {
  bundled ??= bundleServerProcess(PROJECT_ROOT);
  return bundled;
}

/**
 * bench/server-process.ts of the project checked out at `root`, bundled as `npm run build` bundles the server
 * (ingest/server-bundle.ts, Ajv kept), into that checkout's bench/out. Another checkout is another commit's code
 * (bench/serve-flags.ts --ref).
 */
export async function bundleServerProcess(root: string): Promise<string> {
  const outfile = join(root, 'bench', 'out', 'server-process.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'bench', 'server-process.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    // As the server's bundle is written, but keeping Ajv: the fastify baseline role needs it.
    minifyWhitespace: SERVER_BUNDLE_OPTIONS.minifyWhitespace,
    supported: SERVER_BUNDLE_OPTIONS.supported,
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Forks bench/server-process.ts with `spec` and waits until it listens. Its stdout (the access log) goes to
 * `stdoutFile` (appended), or to /dev/null: writing the log lines stays part of the measured work.
 */
export async function startChild(
  spec: ChildSpec,
  opts: {
    execArgv?: string[];
    onStderr?: (text: string) => void;
    stdoutFile?: string;
    /** The tagdex server's node flags and environment instead of the serve script's (bench/serve-flags.ts). */
    serve?: ServeCommand;
    /** The tagdex server's bundle instead of this tree's: another commit's code (bundleServerProcess). */
    bundle?: string;
  } = {},
): Promise<RunningChild> {
  const out = openSync(opts.stdoutFile ?? '/dev/null', 'a');
  // The tagdex server runs as production runs it: JavaScript bundled by esbuild, with plain node and the flags and
  // environment of `npm run serve` (tsx's loader transforms differently and costs a third more CPU per hot request). The other
  // roles may keep tsx.
  const serve = opts.serve ?? serveCommand();
  const child =
    spec.role === 'tagdex'
      ? fork(opts.bundle ?? (await serverProcessBundle()), [JSON.stringify(spec)], {
          cwd: PROJECT_ROOT,
          env: { ...process.env, ...serve.env },
          execArgv: [...serve.flags, ...(opts.execArgv ?? [])],
          stdio: ['ignore', out, opts.onStderr ? 'pipe' : 'inherit', 'ipc'],
        })
      : fork(SERVER_PROCESS, [JSON.stringify(spec)], {
          cwd: PROJECT_ROOT,
          execArgv: ['--import', 'tsx', ...(opts.execArgv ?? [])],
          stdio: ['ignore', out, opts.onStderr ? 'pipe' : 'inherit', 'ipc'],
        });
  closeSync(out);
  const { onStderr } = opts;
  if (onStderr) child.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
  let nextId = 0;
  const waiting = new Map<number, (report: Record<string, unknown>) => void>();

  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`bench ${spec.role} server exited with ${code} before listening`));
    child.once('exit', onExit);
    child.on('message', (message: ChildReply) => {
      if (message.type === 'ready') {
        child.off('exit', onExit);
        resolve(message.ready);
      } else {
        waiting.get(message.id)?.(message.report);
        waiting.delete(message.id);
      }
    });
  });

  const ask = (type: ChildRequest['type']) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.send({ type, id } satisfies ChildRequest);
    });
  return {
    pid: child.pid!,
    ready,
    report: () => ask('report'),
    collectGarbage: async () => {
      await ask('gc');
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The tagdex server as the API bench runs it: live against `upstream`, rate limit off, no proxy trusted. */
export function tagdexSpec(
  site: { buildDir: string; distDir: string },
  upstream: RunningChild,
  responseCache: boolean,
): Extract<ChildSpec, { role: 'tagdex' }> {
  return {
    role: 'tagdex',
    upstreamBaseUrl: String(upstream.ready['baseUrl']),
    buildDir: site.buildDir,
    distDir: site.distDir,
    rateLimitPerHour: 0,
    trustProxy: 0,
    responseCache,
  };
}

/** The port a bare or tagdex child listens on, as a base URL. */
export function childUrl(child: RunningChild): string {
  return `http://127.0.0.1:${Number(child.ready['port'])}`;
}

/** Resident set size of a process, in bytes (VmRSS in /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** How many file descriptors a process holds open (entries of /proc/<pid>/fd). */
export function openFileDescriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** CPU time a process has used so far (user + system), in milliseconds, from /proc/<pid>/stat. */
export function cpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** Linux's USER_HZ: /proc reports CPU times in these ticks; 100 on every mainstream kernel build. */
const CLOCK_TICKS = 100;
