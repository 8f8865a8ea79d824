import { request } from 'node:http';

/**
 * A POST /v1/accounts/login whose body arrives in two parts, `delayMs` apart, so it is still in
 * flight when a test starts shutting the server down. Resolves with the status and body.
 */
export function slowLogin(port: number | string, delayMs: number): Promise<{ status: number; body: string }> {
  const head = '{"email":"a@b.co",';
  const tail = '"password":"password123"}';
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/accounts/login',
        headers: { 'content-type': 'application/json', 'content-length': String(head.length + tail.length) },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    setTimeout(() => req.end(tail), delayMs);
  });
}
