import { type EventRole, eventRoles, type Modality, modalities } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';
import { assignableRoles, isAssignable, narrowRole } from '../src/events/roles';

/** The assignable-role table of docs/events.md, written out independently of the implementation. */
const table: Record<Modality, EventRole[]> = {
  broadcast: ['host', 'speaker', 'viewer'],
  meeting: ['host', 'participant'],
  breakout: ['host', 'participant'],
  rotation: ['host', 'participant'],
};

/** Every non-empty combination of modalities (with one repeated entry, as agendas repeat modalities). */
function combinations(): Modality[][] {
  const out: Modality[][] = [];
  for (let mask = 1; mask < 1 << modalities.length; mask++) {
    const combo = modalities.filter((_, i) => mask & (1 << i));
    out.push(combo, [...combo, combo[0]!]);
  }
  return out;
}

describe('assignableRoles', () => {
  it('accepts only workspace_admin on an event without phases', () => {
    expect(assignableRoles([])).toEqual(['workspace_admin']);
  });

  for (const modality of modalities) {
    for (const role of eventRoles) {
      const expected = role === 'workspace_admin' || table[modality].includes(role);
      it(`${expected ? 'accepts' : 'refuses'} ${role} on a ${modality}-only event`, () => {
        expect(isAssignable(role, [modality])).toBe(expected);
      });
    }
  }

  it('accepts the union of the phases’ roles plus workspace_admin, for every combination of modalities', () => {
    for (const combo of combinations()) {
      const union = new Set<EventRole>(['workspace_admin', ...combo.flatMap((m) => table[m])]);
      for (const role of eventRoles)
        expect(isAssignable(role, combo), `${role} on ${combo.join('+')}`).toBe(union.has(role));
      expect(new Set(assignableRoles(combo))).toEqual(union);
    }
  });

  it('accepts every role on a broadcast-then-breakout agenda', () => {
    expect(assignableRoles(['broadcast', 'breakout', 'broadcast'])).toEqual([...eventRoles]);
  });

  it('lists roles in a stable order whatever the phase order', () => {
    expect(assignableRoles(['meeting', 'broadcast'])).toEqual(assignableRoles(['broadcast', 'meeting']));
  });

  it('accepts workspace_admin on every combination', () => {
    for (const combo of [[], ...combinations()]) expect(isAssignable('workspace_admin', combo)).toBe(true);
  });
});

describe('narrowRole', () => {
  const expected: Record<Modality, Record<EventRole, EventRole>> = {
    broadcast: {
      host: 'host',
      speaker: 'speaker',
      participant: 'viewer',
      viewer: 'viewer',
      workspace_admin: 'workspace_admin',
    },
    meeting: {
      host: 'host',
      speaker: 'participant',
      participant: 'participant',
      viewer: 'viewer',
      workspace_admin: 'workspace_admin',
    },
    breakout: {
      host: 'host',
      speaker: 'participant',
      participant: 'participant',
      viewer: 'viewer',
      workspace_admin: 'workspace_admin',
    },
    rotation: {
      host: 'host',
      speaker: 'participant',
      participant: 'participant',
      viewer: 'viewer',
      workspace_admin: 'workspace_admin',
    },
  };
  for (const modality of modalities) {
    for (const role of eventRoles) {
      it(`reads ${role} in a ${modality} phase as ${expected[modality][role]}`, () => {
        expect(narrowRole(role, modality)).toBe(expected[modality][role]);
      });
    }
  }

  /** Media power, lowest to highest: narrowing may keep or lower it, never raise it. */
  const power: Record<EventRole, number> = {
    viewer: 0,
    participant: 1,
    speaker: 2,
    host: 3,
    workspace_admin: 3,
  };
  it('never widens access', () => {
    for (const modality of modalities)
      for (const role of eventRoles)
        expect(power[narrowRole(role, modality)]).toBeLessThanOrEqual(power[role]);
  });

  it('is idempotent', () => {
    for (const modality of modalities)
      for (const role of eventRoles) {
        expect(narrowRole(narrowRole(role, modality), modality)).toBe(narrowRole(role, modality));
      }
  });

  it('yields a role assignable on that modality (or workspace_admin)', () => {
    for (const modality of modalities)
      for (const role of eventRoles) {
        const narrowed = narrowRole(role, modality);
        if (role !== 'viewer') expect(isAssignable(narrowed, [modality])).toBe(true);
      }
  });
});
