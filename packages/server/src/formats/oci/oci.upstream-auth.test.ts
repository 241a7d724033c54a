import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryRow } from '../../db/schema.js';
import { answerChallenge, parseChallenge } from './oci.upstream-auth.js';

/** The token realm of a registry upstream is the upstream's word: where Arca will and will not go for it. */
describe('asking a registry challenge’s realm for a token', () => {
  const asked: string[] = [];
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      asked.push(`${request.url} ${request.headers.authorization ?? '-'}`);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ token: 'granted', expires_in: 300 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const repo = (url: string) =>
    ({ key: `remote-${url}`, url, username: 'robot', password: 'secret' }) as unknown as RepositoryRow;
  const challenge = (realm: string) =>
    parseChallenge(`Bearer realm="${realm}",service="registry",scope="repository:app:pull"`);

  it('asks a realm on the upstream’s own host, with the repository’s credentials', async () => {
    const answer = await answerChallenge(
      repo(`http://127.0.0.1:${port}/`),
      challenge(`http://127.0.0.1:${port}/token`),
      false,
      ['127.0.0.1'],
    );
    expect(answer).toBe('Bearer granted');
    expect(asked.at(-1)).toMatch(/^\/token\?service=registry&scope=repository%3Aapp%3Apull Basic /);
  });

  it('never asks a plain-HTTP realm on another host, with or without credentials', async () => {
    const before = asked.length;
    const answer = await answerChallenge(
      repo('http://upstream.invalid:5000/'),
      challenge(`http://127.0.0.1:${port}/token`),
      false,
      ['127.0.0.1', 'upstream.invalid'],
    );
    expect(answer).toBeUndefined();
    expect(asked.length).toBe(before);
  });
});
