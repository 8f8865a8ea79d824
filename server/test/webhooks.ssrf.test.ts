import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { WebhookHttpClient } from '../src/webhooks/http-sender';
import { BlockedTargetError, blockedReason, guardedLookup, parseV6 } from '../src/lib/outbound-guard';
import { runCommand } from './support/commands';

describe('SSRF address classifier', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('blocks IPv4 %s (%s)', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '93.184.216.34',
    '11.0.0.1',
  ])('allows public IPv4 %s', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });

  it.each([
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
  ])('blocks IPv6 %s (%s)', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:c0a8:1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.0.1', 'cgnat'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['0:0:0:0:0:ffff:172.16.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
  ])('blocks IPv4-embedding IPv6 form %s (%s)', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  it.each([
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows public IPv6 %s', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });

  it('treats anything that is not an address as invalid', () => {
    expect(blockedReason('example.com')).toBe('invalid');
    expect(blockedReason('1.2.3')).toBe('invalid');
  });

  it('parses IPv6 forms to the same bytes', () => {
    expect(parseV6('::ffff:127.0.0.1')).toEqual(parseV6('::ffff:7f00:1'));
    expect(parseV6('1:2:3:4:5:6:1.2.3.4')).toEqual(parseV6('1:2:3:4:5:6:102:304'));
    expect(parseV6('1::2::3')).toBeNull();
  });
});

const fakeDns =
  (answers: LookupAddress[]) =>
  (_host: string, _opts: unknown, cb: (err: Error | null, addresses: LookupAddress[]) => void) =>
    cb(null, answers);

describe('pinned lookup', () => {
  it('refuses a host whose answers include a private address, even next to a public one', async () => {
    const lookup = guardedLookup(
      fakeDns([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ]) as never,
    );
    const err = await new Promise<Error | null>((resolve) => lookup('evil.example', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect(err!.message).toContain('10.0.0.5');
  });

  it('hands the socket exactly the address it checked', async () => {
    const lookup = guardedLookup(fakeDns([{ address: '93.184.216.34', family: 4 }]) as never);
    const got = await new Promise<[string, number]>((resolve) =>
      lookup('ok.example', {}, (_e, a, f) => resolve([a as string, f!])),
    );
    expect(got).toEqual(['93.184.216.34', 4]);
  });

  it('answers `all` lookups (happy eyeballs) with the checked list', async () => {
    const lookup = guardedLookup(fakeDns([{ address: '2606:4700:4700::1111', family: 6 }]) as never);
    const got = await new Promise<unknown>((resolve) =>
      lookup('ok.example', { all: true }, (_e, a) => resolve(a)),
    );
    expect(got).toEqual([{ address: '2606:4700:4700::1111', family: 6 }]);
  });

  it('a DNS answer that changes between check and connect cannot reach a private address', async () => {
    // The first answer is public, every later one private: the connection uses the one answer it checked.
    let calls = 0;
    const flipping = (_h: string, _o: unknown, cb: (e: null, a: LookupAddress[]) => void) =>
      cb(null, [{ address: calls++ === 0 ? '203.0.114.1' : '127.0.0.1', family: 4 }]);
    const lookup = guardedLookup(flipping as never);
    const first = await new Promise<string>((resolve) =>
      lookup('rebind.example', {}, (_e, a) => resolve(a as string)),
    );
    expect(first).toBe('203.0.114.1');
    const second = await new Promise<Error | null>((resolve) =>
      lookup('rebind.example', {}, (e) => resolve(e)),
    );
    expect(second).toBeInstanceOf(BlockedTargetError);
  });

  it('the sender refuses loopback, private and localhost targets and logs why', async () => {
    const client = new WebhookHttpClient(false);
    try {
      for (const url of [
        'https://127.0.0.1/x',
        'https://[::1]/x',
        'https://[::ffff:10.0.0.1]/x',
        'https://localhost/x',
        'http://93.184.216.34/x',
      ]) {
        const r = await client.post(url, {}, '{}', 2000);
        expect(r.status, url).toBeNull();
        expect(r.error, url).toMatch(/^blocked target/);
      }
    } finally {
      client.close();
    }
  });
});

describe('pinned lookup at the socket', () => {
  it('a resolver that answers a public address, then 127.0.0.1, never gets a connection to loopback', async () => {
    // A private network namespace (loopback only) where 203.0.114.1 is local: no packet leaves the
    // machine, yet the sender really connects wherever its lookup sends it.
    const script =
      'ip link set lo up && ip addr add 203.0.114.1/32 dev lo && exec node --import tsx test/support/rebind-probe.ts';
    const run = (args: string[]) => runCommand('unshare', [...args, 'sh', '-c', script], { timeoutMs: 60_000 });
    let out = await run(['-rn']); // unprivileged: a user namespace maps us to root inside
    if (out.status !== 0) out = await run(['-n']); // already root, user namespaces disabled
    expect(out.status, out.stderr).toBe(0);
    const probe = JSON.parse(out.stdout.trim().split('\n').pop()!) as {
      counts: { loopback: number; public: number };
      lookups: string[];
      results: { status: number | null; error: string | null }[];
    };
    // The first connection went to the address that was checked; every later lookup answered
    // loopback and was refused before any socket was opened.
    expect(probe.counts.public).toBe(1);
    expect(probe.counts.loopback).toBe(0);
    expect(probe.lookups).toEqual(['203.0.114.1', '127.0.0.1', '127.0.0.1']);
    expect(probe.results[0]!.error).toMatch(/^connection error/);
    for (const r of probe.results.slice(1))
      expect(r.error).toMatch(/^blocked target: 127\.0\.0\.1 is a loopback address/);
  });
});
