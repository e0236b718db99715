import { describe, expect, it } from 'vitest';
import { clientAddress, expandIPv6, rateLimitKey } from '../../src/lib/client-address.ts';

describe('clientAddress', () => {
  it('uses the socket address and ignores forwarding headers when no proxy is trusted', () => {
    expect(clientAddress({ socketAddress: '203.0.113.9', forwardedFor: '1.1.1.1', forwarded: 'for=2.2.2.2' }, 0)).toBe(
      '203.0.113.9',
    );
  });

  it('with one trusted hop, takes the address the proxy appended, not the client-supplied leftmost one', () => {
    const sources = { socketAddress: '10.0.0.2', forwardedFor: '6.6.6.6, 198.51.100.7' };
    expect(clientAddress(sources, 1)).toBe('198.51.100.7');
  });

  it('with two trusted hops, reads two entries from the right', () => {
    const sources = { socketAddress: '10.0.0.2', forwardedFor: 'spoofed, 198.51.100.7, 10.0.0.9' };
    expect(clientAddress(sources, 2)).toBe('198.51.100.7');
  });

  it('a chain shorter than the trusted hops yields its leftmost entry', () => {
    expect(clientAddress({ socketAddress: '10.0.0.2', forwardedFor: '198.51.100.7' }, 3)).toBe('198.51.100.7');
  });

  it('reads RFC 7239 Forwarded when X-Forwarded-For is absent, with ports and brackets removed', () => {
    const forwarded = 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"';
    expect(clientAddress({ socketAddress: '10.0.0.2', forwarded }, 1)).toBe('2001:db8:cafe::17');
    expect(clientAddress({ socketAddress: '10.0.0.2', forwarded }, 2)).toBe('192.0.2.60');
  });
});

describe('rateLimitKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['2001:db8:abcd:1234::1', '2001:db8:abcd:1200::/56'],
    ['2001:db8:abcd:12ff:ffff:ffff:ffff:ffff', '2001:db8:abcd:1200::/56'],
    ['2001:db8:abcd:1300::1', '2001:db8:abcd:1300::/56'],
    ['[2001:db8::1]', '2001:db8:0:0::/56'],
    ['fe80::1%eth0', 'fe80:0:0:0::/56'],
  ])('%s counts as %s', (address, key) => {
    expect(rateLimitKey(address)).toBe(key);
  });

  it('puts every address of one /56 in one bucket and the next /56 in another', () => {
    const a = rateLimitKey('2001:db8:1:aa00::1');
    const b = rateLimitKey('2001:db8:1:aaff:1234:5678:9abc:def0');
    const c = rateLimitKey('2001:db8:1:ab00::1');
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('expandIPv6', () => {
  it.each([
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['1::', [1, 0, 0, 0, 0, 0, 0, 0]],
    ['64:ff9b::192.0.2.33', [0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]],
  ])('expands %s', (address, groups) => {
    expect(expandIPv6(address)).toEqual(groups);
  });

  it.each(['1:2:3', '1::2::3', 'g::1', '1:2:3:4:5:6:7:8:9', '::1.2.3.256'])('rejects %s', (address) => {
    expect(expandIPv6(address)).toBeNull();
  });
});
