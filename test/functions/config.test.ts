/** The configuration is validated once at start-up: the new variables of round-two hardening included. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config.ts';

describe('TRUST_PROXY_HEADER', () => {
  it('defaults to x-forwarded-for and accepts forwarded in any case', () => {
    expect(loadConfig({}).TRUST_PROXY_HEADER).toBe('x-forwarded-for');
    expect(loadConfig({ TRUST_PROXY_HEADER: ' Forwarded ' }).TRUST_PROXY_HEADER).toBe('forwarded');
  });

  it('refuses any other header, naming the variable and the accepted values', () => {
    expect(() => loadConfig({ TRUST_PROXY_HEADER: 'x-real-ip' })).toThrow(
      /TRUST_PROXY_HEADER: TRUST_PROXY_HEADER must be x-forwarded-for or forwarded/,
    );
  });
});

describe('MAX_CONNECTIONS', () => {
  it('defaults to 4,096 and accepts a whole number from 1', () => {
    expect(loadConfig({}).MAX_CONNECTIONS).toBe(4096);
    expect(loadConfig({ MAX_CONNECTIONS: '200' }).MAX_CONNECTIONS).toBe(200);
  });

  it.each(['0', '-1', 'lots', '1.5'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ MAX_CONNECTIONS: value })).toThrow(/MAX_CONNECTIONS/);
  });
});

describe('SNAPSHOT_RETENTION_DAYS', () => {
  it('defaults to 90, the longest window, and accepts a whole number from 1 to 90', () => {
    expect(loadConfig({}).SNAPSHOT_RETENTION_DAYS).toBe(90);
    expect(loadConfig({ SNAPSHOT_RETENTION_DAYS: '30' }).SNAPSHOT_RETENTION_DAYS).toBe(30);
    expect(loadConfig({ SNAPSHOT_RETENTION_DAYS: '1' }).SNAPSHOT_RETENTION_DAYS).toBe(1);
  });

  it.each(['0', '91', '30d', '-30', '2.5'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ SNAPSHOT_RETENTION_DAYS: value })).toThrow(
      /SNAPSHOT_RETENTION_DAYS: SNAPSHOT_RETENTION_DAYS must be/,
    );
  });
});

describe('SNAPSHOT_BUCKET', () => {
  it('is unset by default and takes an R2 bucket name', () => {
    expect(loadConfig({}).SNAPSHOT_BUCKET).toBeUndefined();
    expect(loadConfig({ SNAPSHOT_BUCKET: 'tagdex-snapshots' }).SNAPSHOT_BUCKET).toBe('tagdex-snapshots');
  });

  it.each(['Tagdex', 'ab', 'tagdex_snapshots', '-tagdex', 'tagdex/x'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ SNAPSHOT_BUCKET: value })).toThrow(/SNAPSHOT_BUCKET must be an R2 bucket name/);
  });
});

describe('start-up', () => {
  it('stops with status 2 and the variable named when a value is bad, before reading any data', () => {
    const run = spawnSync('node', ['--import', 'tsx', 'functions/node/main.ts'], {
      env: { ...process.env, TRUST_PROXY_HEADER: 'cf-connecting-ip', BUILD_DIR: '/nonexistent' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/TRUST_PROXY_HEADER must be x-forwarded-for or forwarded/);
  });
});
