import { readFileSync } from 'node:fs';
import path from 'node:path';
import { liveCloseCodeTable, liveErrorCodes } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';

/**
 * The live gateway's error codes and close codes are one table in the contract, which the server
 * sends from and the SDK branches on; the live gateway guide lists the same codes, no more, no fewer.
 */
const guide = readFileSync(path.resolve(__dirname, '../../docs/live-gateway.md'), 'utf8');

/** The first column of the table under a heading, cell by cell (backticks dropped). */
function firstColumn(heading: string): string[] {
  const after = guide.slice(guide.indexOf(`\n${heading}\n`) + heading.length + 2);
  const table = after.slice(after.indexOf('\n|'), after.indexOf('\n\n', after.indexOf('\n|') + 1));
  return table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2) // header and separator
    .map((line) => line.split('|')[1]!.trim().replaceAll('`', ''));
}

describe('the live vocabulary', () => {
  it("lists in the guide every close code of the contract's table, and only those", () => {
    const documented = firstColumn('### Close codes').map(Number);
    const contract = Object.values(liveCloseCodeTable).map((c) => c.code);
    expect([...documented].sort()).toEqual([...contract].sort());
  });

  it("lists in the guide every error code of the contract's table, and only those", () => {
    expect(firstColumn('### Errors').sort()).toEqual([...liveErrorCodes].sort());
  });

  it('gives every close code one name', () => {
    const codes = Object.values(liveCloseCodeTable).map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
