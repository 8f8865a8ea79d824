/**
 * The web entry in a runtime that has Web Crypto and nothing of Node:
 * no Buffer, no require, no process, no node:crypto (as in Workers or a browser).
 */

import { webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { WebEntry } from './helpers';
import { clockAt, packageDir, vectors } from './helpers';

function webOnlyContext(): vm.Context {
  const context = vm.createContext({
    crypto: webcrypto,
    TextEncoder,
    TextDecoder,
    Headers,
    Request,
    Uint8Array,
    ArrayBuffer,
    console,
  });
  vm.runInContext('globalThis.self = globalThis', context);
  return context;
}

/** Loads dist/web.cjs with only `module` and `exports` handed in. */
function loadCjs(context: vm.Context): WebEntry {
  const source = readFileSync(new URL('dist/web.cjs', packageDir), 'utf8');
  const wrapper = vm.runInContext(`(function (module, exports) {${source}\n})`, context);
  const module = { exports: {} };
  wrapper(module, module.exports);
  return module.exports as WebEntry;
}

/** Bundles dist/web.js (ESM) for the browser, as an app's bundler would, and runs it. */
function loadEsmBundle(context: vm.Context): WebEntry {
  const bundle = buildSync({
    entryPoints: [new URL('dist/web.js', packageDir).pathname],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'gc',
    write: false,
  });
  vm.runInContext(bundle.outputFiles[0].text, context);
  return vm.runInContext('gc', context) as WebEntry;
}

describe.each([
  ['dist/web.cjs', loadCjs],
  ['dist/web.js bundled for the browser', loadEsmBundle],
])('web entry without Node globals (%s)', (_, load) => {
  const context = webOnlyContext();
  const gc = load(context);

  it('runs where Buffer, require and process do not exist', () => {
    expect(vm.runInContext('[typeof Buffer, typeof require, typeof process]', context)).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
  });

  it('accepts every valid vector', async () => {
    for (const v of vectors.valid) {
      const event = await gc.verify(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) });
      expect(event.id).toBe(v.headers['x-gc-event-id']);
    }
  });

  it('rejects every invalid vector with its code', async () => {
    for (const v of vectors.invalid) {
      await expect(
        gc.verify(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) }),
      ).rejects.toMatchObject({
        code: v.expectedCode,
      });
    }
  });

  it('verifies a Request read by verifyRequest', async () => {
    const v = vectors.valid[1];
    const request = new Request('https://receiver.test/webhooks', {
      method: 'POST',
      body: v.body,
      headers: v.headers,
    });
    await expect(
      gc.verifyRequest(request, v.verifierSecrets, { now: clockAt(v.now) }),
    ).resolves.toMatchObject({
      type: 'question.created',
    });
  });

  it('signs like the shared vectors', async () => {
    const v = vectors.valid[3];
    expect(await gc.sign({ secret: v.signerSecrets, payload: v.body, timestamp: v.timestamp })).toBe(
      v.headers['x-gc-signature'],
    );
  });
});

describe('web entry source', () => {
  it.each(['dist/web.js', 'dist/web.cjs'])('%s imports no node: module and uses no Buffer', (file) => {
    const source = readFileSync(new URL(file, packageDir), 'utf8');
    expect(source).not.toMatch(/node:|\bBuffer\b|require\(/);
  });
});
