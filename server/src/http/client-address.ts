import type { Request } from 'express';
import { blockedReason } from '../lib/outbound-guard';

/** The caller's address: `req.ip` (X-Forwarded-For only with TRUST_PROXY), else the socket's peer. */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The machine itself (127.0.0.0/8, ::1, in any spelling the outbound guard reads): on it only a proxy or the operator
 * connects, so the per-address caps count such a peer only when CAP_LOOPBACK_ADDRESSES is on.
 */
export const isLoopback = (address: string): boolean => blockedReason(address) === 'loopback';
