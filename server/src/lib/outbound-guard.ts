import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Where the server may not send a request to a caller-given URL (a webhook delivery, a partner's
 * JWKS fetch): loopback, private (RFC 1918, IPv6 ULA),
 * link-local, CGNAT, multicast, unspecified and other special-purpose ranges, in IPv4 form and in
 * every IPv6 form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4).
 */
export type BlockedReason =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'multicast'
  | 'unique-local'
  | 'reserved'
  | 'invalid';

interface Range {
  bytes: number[];
  bits: number;
  reason: BlockedReason;
}

const v4Ranges: Range[] = [
  { bytes: [0, 0, 0, 0], bits: 8, reason: 'unspecified' },
  { bytes: [10, 0, 0, 0], bits: 8, reason: 'private' },
  { bytes: [100, 64, 0, 0], bits: 10, reason: 'cgnat' },
  { bytes: [127, 0, 0, 0], bits: 8, reason: 'loopback' },
  { bytes: [169, 254, 0, 0], bits: 16, reason: 'link-local' },
  { bytes: [172, 16, 0, 0], bits: 12, reason: 'private' },
  { bytes: [192, 0, 0, 0], bits: 24, reason: 'reserved' },
  { bytes: [192, 0, 2, 0], bits: 24, reason: 'reserved' },
  { bytes: [192, 88, 99, 0], bits: 24, reason: 'reserved' },
  { bytes: [192, 168, 0, 0], bits: 16, reason: 'private' },
  { bytes: [198, 18, 0, 0], bits: 15, reason: 'reserved' },
  { bytes: [198, 51, 100, 0], bits: 24, reason: 'reserved' },
  { bytes: [203, 0, 113, 0], bits: 24, reason: 'reserved' },
  { bytes: [224, 0, 0, 0], bits: 4, reason: 'multicast' },
  { bytes: [240, 0, 0, 0], bits: 4, reason: 'reserved' },
];

const v6 = (groups: number[]) => groups.flatMap((g) => [g >> 8, g & 0xff]);
const v6Ranges: Range[] = [
  { bytes: v6([0, 0, 0, 0, 0, 0, 0, 0]), bits: 128, reason: 'unspecified' },
  { bytes: v6([0, 0, 0, 0, 0, 0, 0, 1]), bits: 128, reason: 'loopback' },
  { bytes: v6([0x100, 0, 0, 0, 0, 0, 0, 0]), bits: 64, reason: 'reserved' },
  { bytes: v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]), bits: 32, reason: 'reserved' },
  { bytes: v6([0xfc00, 0, 0, 0, 0, 0, 0, 0]), bits: 7, reason: 'unique-local' },
  { bytes: v6([0xfe80, 0, 0, 0, 0, 0, 0, 0]), bits: 10, reason: 'link-local' },
  { bytes: v6([0xfec0, 0, 0, 0, 0, 0, 0, 0]), bits: 10, reason: 'reserved' },
  { bytes: v6([0xff00, 0, 0, 0, 0, 0, 0, 0]), bits: 8, reason: 'multicast' },
];

function inRange(addr: number[], range: Range): boolean {
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((addr[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

function parseV4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return out.every((n) => n >= 0 && n <= 255) ? out : null;
}

/** 16 bytes of an IPv6 address (with `::` and a dotted IPv4 tail), or null. Zone ids are ignored. */
export function parseV6(input: string): number[] | null {
  let s = input.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase();
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const toGroups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = toGroups(halves[0]!);
  const rest = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const groupsKnown = head.length + rest.length + tail.length;
  if (halves.length === 1 ? groupsKnown !== 8 : groupsKnown > 7) return null;
  const groups = [
    ...head.map((g) => Number.parseInt(g, 16)),
    ...new Array<number>(8 - groupsKnown).fill(0),
    ...rest.map((g) => Number.parseInt(g, 16)),
    ...tail,
  ];
  return v6(groups);
}

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64 or 6to4), if any. */
function embeddedV4(b: number[]): number[] | null {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12, 16); // ::ffff:a.b.c.d
  if (zeros(0, 12) && !(zeros(12, 15) && (b[15] === 0 || b[15] === 1))) return b.slice(12, 16); // ::a.b.c.d
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12, 16); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 2002::/16 (6to4)
  return null;
}

/** Why an address is not a valid webhook target, or null when it is a public unicast address. */
export function blockedReason(address: string): BlockedReason | null {
  const family = isIP(address.replace(/^\[|\]$/g, '').split('%')[0]!);
  if (family === 4) {
    const b = parseV4(address)!;
    return v4Ranges.find((r) => inRange(b, r))?.reason ?? null;
  }
  if (family === 6) {
    const b = parseV6(address);
    if (!b) return 'invalid';
    const direct = v6Ranges.find((r) => inRange(b, r))?.reason;
    if (direct) return direct;
    const v4 = embeddedV4(b);
    if (v4) return v4Ranges.find((r) => inRange(v4, r))?.reason ?? null;
    return null;
  }
  return 'invalid';
}

export class BlockedTargetError extends Error {
  readonly code = 'EBLOCKEDTARGET';
  constructor(
    readonly address: string,
    readonly reason: BlockedReason,
  ) {
    super(`blocked target: ${address} is ${reason === 'invalid' ? 'not a valid address' : `a ${reason} address`}`);
  }
}

/**
 * A `lookup` for http(s) agents that resolves the host, refuses the connection if ANY answer is a
 * blocked address, and hands the checked address to the socket. The socket connects to exactly the
 * address that was checked, so a DNS answer that changes between check and connect cannot reach a
 * private address.
 */
export function guardedLookup(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!list.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      for (const a of list) {
        const reason = blockedReason(a.address);
        if (reason) return callback(new BlockedTargetError(a.address, reason), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
