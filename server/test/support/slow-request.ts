import { request } from 'node:http';

export interface SlowLogin {
  /** Resolves once the server has read the request's headers and taken it up (it answered 100 Continue). */
  accepted: Promise<void>;
  /** Sends the rest of the body: the request can complete from now on. */
  finish(): void;
  /** The status and body the server answered. */
  answer: Promise<{ status: number; body: string }>;
}

/**
 * A POST /v1/accounts/login that the server has taken up but that cannot complete until the test
 * calls `finish()`: it asks `Expect: 100-continue`, so `accepted` is the server's own word that the
 * request is in flight (no guessed delay), then half of the body goes out and the rest waits.
 */
export function slowLogin(port: number | string): SlowLogin {
  const head = '{"email":"a@b.co",';
  const tail = '"password":"password123"}';
  let accept!: () => void;
  const accepted = new Promise<void>((resolve) => {
    accept = resolve;
  });
  let finish!: () => void;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/accounts/login',
        headers: {
          'content-type': 'application/json',
          'content-length': String(head.length + tail.length),
          expect: '100-continue',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.on('continue', () => req.write(head, () => accept()));
    finish = () => void accepted.then(() => req.end(tail));
    req.flushHeaders();
  });
  return { accepted, finish, answer };
}
