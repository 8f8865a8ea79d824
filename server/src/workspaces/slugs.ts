import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';

/** `Acme Events, Inc.` → `acme-events-inc`; padded to the 3-character minimum. */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base.length >= 3 ? base : `workspace${base ? `-${base}` : ''}`;
}

/** The name's slug if free, else the slug with a short random suffix (checked again). */
export async function generateUniqueSlug(em: EntityManager, name: string): Promise<string> {
  const base = slugify(name);
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = attempt === 0 ? base : `${base}-${randomBytes(3).toString('hex')}`;
    const taken = await sql(em, 'select 1 from workspace where slug = ?', [candidate]);
    if (!taken.length) return candidate;
  }
  return `${base}-${randomBytes(8).toString('hex')}`;
}
