import { describe, expect, it } from 'vitest';
import { normaliseApiBase } from '../../src/components/api-base.ts';

describe('PUBLIC_API_BASE', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['https://api.example.org/', 'https://api.example.org'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['https://example.org/tagdex//', 'https://example.org/tagdex'],
  ])('%s is called as %j', (value, base) => {
    expect(normaliseApiBase(value)).toBe(base);
  });

  it.each(['api.example.org', 'ftp://example.org', 'https://example.org/?x=1'])('%s stops the build', (value) => {
    expect(() => normaliseApiBase(value)).toThrow(/PUBLIC_API_BASE/);
  });
});
