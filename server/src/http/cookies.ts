import type { Request, Response } from 'express';

export const sessionCookieName = 'gc_session';
export const sessionLifetimeMs = 30 * 24 * 3600 * 1000;

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** gc_session: HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_BASE_URL is https. */
export function setSessionCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(sessionCookieName, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: sessionLifetimeMs,
  });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(sessionCookieName, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}
