import { constants, existsSync } from 'node:fs';
import { access, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { devWorkerInput, prepareState, prepareWranglerEnv, workerEnvFile } from '../../functions/worker/dev.ts';

const KEY = 'AIzaSy-launcher-canary';
const config = loadConfig({ YOUTUBE_API_KEY: KEY, HOST: '127.0.0.1', PORT: '8788', DIST_DIR: 'dist' });

describe('the Worker launcher (functions/worker/dev.ts)', () => {
  it('gives wrangler the key only through the env file, never in its options', () => {
    const input = devWorkerInput(config, '/tmp/state', 'default');
    expect(JSON.stringify(input)).not.toContain(KEY);
    expect(input.envFiles).toEqual(['/tmp/state/worker.env']);
    expect(workerEnvFile(config)).toContain(`YOUTUBE_API_KEY=${JSON.stringify(KEY)}\n`);
  });

  it('watches no file, keeps its state in the given folder and serves DIST_DIR as an absolute path', () => {
    const input = devWorkerInput(config, '/tmp/state', 'default');
    expect(input.dev?.watch).toBe(false);
    expect(input.dev?.persist).toBe('/tmp/state/state');
    expect(input.dev?.server).toEqual({ hostname: '127.0.0.1', port: 8788 });
    expect(isAbsolute(String(input.assets))).toBe(true);
  });

  it('makes a fresh state folder in memory (/dev/shm) where the system has one, its env file readable by its owner only', async () => {
    const memory =
      existsSync('/dev/shm') &&
      (await access('/dev/shm', constants.W_OK).then(
        () => true,
        () => false,
      ));
    const [first, second] = [await prepareState(config), await prepareState(config)];
    try {
      expect(first).not.toBe(second);
      expect(dirname(first)).toBe(memory ? '/dev/shm' : tmpdir());
      expect((await stat(`${first}/worker.env`)).mode & 0o777).toBe(0o600);
      expect(await readFile(`${first}/worker.env`, 'utf8')).toBe(workerEnvFile(config));
    } finally {
      await rm(first, { recursive: true, force: true });
      await rm(second, { recursive: true, force: true });
    }
  });

  it('takes the key out of the environment wrangler reads, and keeps its local trace collector off unless asked', () => {
    const env: NodeJS.ProcessEnv = { YOUTUBE_API_KEY: KEY, PATH: '/usr/bin' };
    prepareWranglerEnv(env);
    expect(env).toEqual({
      PATH: '/usr/bin',
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_WRITE_LOGS: 'false',
      WRANGLER_LOG: 'warn',
      X_LOCAL_OBSERVABILITY: 'false',
    });
    const asked: NodeJS.ProcessEnv = { X_LOCAL_OBSERVABILITY: 'true', WRANGLER_LOG: 'debug' };
    prepareWranglerEnv(asked);
    expect(asked).toMatchObject({ X_LOCAL_OBSERVABILITY: 'true', WRANGLER_LOG: 'debug' });
  });

  it('opens the inspector where asked: wrangler’s port, a given one, or none', () => {
    const inspector = (choice: Parameters<typeof devWorkerInput>[2]) =>
      devWorkerInput(config, '/s', choice).dev?.inspector;
    expect(inspector('default')).toBeUndefined();
    expect(inspector({ port: 9333 })).toEqual({ port: 9333 });
    expect(inspector('off')).toBe(false);
  });
});

describe('WORKER_INSPECTOR', () => {
  it('defaults to on and accepts on or off in any case', () => {
    expect(loadConfig({}).WORKER_INSPECTOR).toBe('on');
    expect(loadConfig({ WORKER_INSPECTOR: ' OFF ' }).WORKER_INSPECTOR).toBe('off');
  });

  it('refuses anything else, naming the variable and the accepted values', () => {
    expect(() => loadConfig({ WORKER_INSPECTOR: 'no' })).toThrow(/WORKER_INSPECTOR must be on or off/);
  });
});
