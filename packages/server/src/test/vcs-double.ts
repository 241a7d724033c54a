import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the double received, as a test asserts it. */
export interface RecordedRequest {
  vendor: string;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A stand-in for GitHub, GitLab, Bitbucket Cloud and Bitbucket Server that answers each vendor's
 * "who am I" call the way the vendor documents it — only for the credential it was given — and
 * records every request. Each vendor lives under its own prefix: `/github` (as GitHub Enterprise's
 * `/api/v3`), `/gitlab`, `/bitbucket-cloud`, `/bitbucket-server`.
 */
export async function startVcsDouble(account: { user: string; token: string }) {
  const requests: RecordedRequest[] = [];
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const [, vendor = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    requests.push({ vendor, method: req.method ?? 'GET', path, headers: req.headers });
    const auth = req.headers.authorization ?? '';
    const basic = `Basic ${Buffer.from(`${account.user}:${account.token}`).toString('base64')}`;
    if (vendor === 'github' && path === '/user') {
      if (auth !== `Bearer ${account.token}`) return json(res, 401, { message: 'Bad credentials' });
      return json(res, 200, { login: account.user, id: 1, type: 'User' });
    }
    if (vendor === 'gitlab' && path === '/api/v4/user') {
      if (req.headers['private-token'] !== account.token) return json(res, 401, { message: '401 Unauthorized' });
      return json(res, 200, { id: 7, username: account.user, state: 'active' });
    }
    if (vendor === 'bitbucket-cloud' && path === '/2.0/user') {
      if (auth !== basic) return json(res, 401, { type: 'error', error: { message: 'Unauthorized' } });
      return json(res, 200, { username: account.user, type: 'user' });
    }
    if (vendor === 'bitbucket-server' && path.startsWith('/rest/api/1.0/users/')) {
      if (auth !== `Bearer ${account.token}`)
        return json(res, 401, { errors: [{ message: 'Authentication failed.' }] });
      const slug = decodeURIComponent(path.slice('/rest/api/1.0/users/'.length));
      if (slug !== account.user) return json(res, 404, { errors: [{ message: 'User does not exist' }] });
      return json(res, 200, { name: account.user, slug: account.user, active: true });
    }
    json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
