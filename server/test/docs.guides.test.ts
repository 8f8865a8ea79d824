import { describe, expect, it } from 'vitest';
import { guideSources } from '../src/docs/sources';

// The guides are written for integrators and operators and stand alone: they state each rule
// themselves, cite no document outside this repository, and leave source file paths (implementation
// notes) to docs/architecture.md.

/** Pages for contributors, where source paths are the point. */
const forContributors = new Set(['docs/architecture.md']);
const guides = guideSources().filter((g) => !forContributors.has(g.file));

describe('the guides', () => {
  it('cite no document outside the repository', () => {
    const cited = guides.flatMap((g) =>
      [...g.markdown.matchAll(/decisions\.md|decisions §|§\s?\d|the spec\b|shared\/spec/gi)].map(
        (m) => `${g.file}: ${m[0]}`,
      ),
    );
    expect(cited).toEqual([]);
  });

  it('name no source file of the server, contract or SDK as an implementation note', () => {
    const paths = guides.flatMap((g) =>
      [...g.markdown.matchAll(/\b(?:server|contract|sdk|webhook-verifier)\/(?:src|test)\/[\w./-]*/g)].map(
        (m) => `${g.file}: ${m[0]}`,
      ),
    );
    expect(paths).toEqual([]);
  });
});
