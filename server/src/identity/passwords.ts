import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1), OWASP's minimum recommendation.
const options = { algorithm: 2 as const }; // Algorithm.Argon2id (a const enum, unreadable under isolatedModules)

export const hashPassword = (password: string) => hash(password, options);

/** A real hash of nothing, so a login for an unknown email costs as much as a wrong password. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashPassword('decoy-password-never-matches');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
