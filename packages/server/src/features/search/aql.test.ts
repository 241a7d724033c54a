import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, createUser, put, startTestApp, type TestApp } from '../../test/harness.js';
import { AQL_MAX_TERMS, AqlError, parseAql } from './aql.parser.js';

describe('the AQL parser', () => {
  it('reads find, include, sort, offset, limit and transitive', () => {
    const query = parseAql(
      'items.find({"repo":"libs","$or":[{"name":{"$match":"*.jar"}},{"@build.number":"42"}]}).include("name","property").sort({"$desc":["size"]}).offset(2).limit(10).transitive()',
    );
    expect(query.criteria.entries.map((e) => e.key)).toEqual(['repo', '$or']);
    expect(query.include.map((i) => i.field)).toEqual(['name', 'property']);
    expect(query.sort).toMatchObject({ direction: 'desc', fields: [{ field: 'size' }] });
    expect([query.offset, query.limit, query.transitive]).toEqual([2, 10, true]);
  });

  it.each([
    ['items.find({"repo":"libs"', "Expected '}' but found the end of the query", 25],
    ['items.find({repo:"libs"})', "Expected a field name in double quotes but found 'repo'", 12],
    ['items.find({"repo":})', "Expected a value but found '}'", 19],
    ['releases.find()', "Unsupported domain 'releases'", 0],
    ['items.find().limit(-1)', 'limit() takes a whole number', 19],
    ['items.find().boom()', "Unknown modifier 'boom'", 13],
    ['items.find({"name":"a\\q"})', 'Invalid escape in string', 21],
    ['items.find() extra', "Expected the end of the query but found 'extra'", 13],
    ['items.find({"a":1}) #', "Unexpected character '#'", 20],
  ])('points at the mistake in %s', (text, message, position) => {
    let error: unknown;
    try {
      parseAql(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AqlError);
    expect((error as AqlError).message).toContain(message);
    expect((error as AqlError).position).toBe(position);
  });

  it('never crashes on any input: it parses or answers an AqlError', () => {
    const pieces = fc.constantFrom(
      'items',
      '.',
      'find',
      '(',
      ')',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"repo"',
      '"$and"',
      '"$or"',
      '"@k"',
      '"$match"',
      '"*.jar"',
      '1',
      '-2.5e3',
      'true',
      'null',
      'include',
      'sort',
      'limit',
      'offset',
      '"$asc"',
      ' ',
      '\\',
      '"',
      'x',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(pieces, { maxLength: 60 }).map((a) => a.join('')),
        ),
        (text) => {
          try {
            parseAql(text);
          } catch (error) {
            if (!(error instanceof AqlError)) throw error;
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe.each(ENGINES)('POST /artifactory/api/search/aql on %s', (engine) => {
  let t: TestApp;
  const aql = (text: string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({
      method: 'POST',
      url: '/artifactory/api/search/aql',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: text,
    });
  const names = (res: { json: () => unknown }) =>
    (res.json() as { results: { name: string }[] }).results.map((r) => r.name);

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'generic' });
    await createRepo(t.app, 'other', { rclass: 'local', packageType: 'generic' });
    await put(t.app, '/artifactory/libs/org/app/app-1.0.jar;build.number=41;env=prod', 'a'.repeat(100));
    await put(t.app, '/artifactory/libs/org/app/app-1.1.jar;build.number=42', 'b'.repeat(300));
    await put(t.app, '/artifactory/libs/org/app/notes.txt', 'notes');
    await put(t.app, '/artifactory/libs/top.jar', 'top');
    await put(t.app, '/artifactory/other/secret/s.jar', 'secret');
    await createRepo(t.app, 'maven', { rclass: 'local', packageType: 'maven' });
    await put(t.app, '/artifactory/maven/org/acme/demo/1.0/demo-1.0-sources.jar', 'src');
    await t.app.inject({ method: 'GET', url: '/artifactory/libs/org/app/app-1.1.jar', headers: ADMIN_BASIC });
    await t.app.inject({ method: 'GET', url: '/artifactory/libs/org/app/app-1.1.jar', headers: ADMIN_BASIC });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['items.find({"repo":"libs"})', ['top.jar', 'app-1.0.jar', 'app-1.1.jar', 'notes.txt']],
    ['items.find({"name":{"$match":"*.jar"},"repo":"libs"})', ['top.jar', 'app-1.0.jar', 'app-1.1.jar']],
    ['items.find({"name":{"$nmatch":"*.jar"},"repo":{"$ne":"maven"}})', ['notes.txt']],
    ['items.find({"@build.number":"42"})', ['app-1.1.jar']],
    ['items.find({"@build.number":{"$ne":"42"},"repo":"libs","name":{"$match":"app*"}})', ['app-1.0.jar']],
    ['items.find({"$or":[{"@env":"prod"},{"name":"top.jar"}]})', ['top.jar', 'app-1.0.jar']],
    ['items.find({"size":{"$gt":100},"repo":"libs"})', ['app-1.1.jar']],
    [
      'items.find({"size":{"$gte":100,"$lte":300},"repo":"libs"}).sort({"$desc":["size"]})',
      ['app-1.1.jar', 'app-1.0.jar'],
    ],
    ['items.find({"path":"org/app","name":{"$match":"app-1.?.jar"}})', ['app-1.0.jar', 'app-1.1.jar']],
    ['items.find({"path":"."})', ['top.jar']],
    ['items.find({"type":"folder","repo":"libs"})', ['org', 'app']],
    ['items.find({"stat.downloads":{"$gte":2}})', ['app-1.1.jar']],
    ['items.find({"created":{"$last":"1d"},"repo":"other"})', ['s.jar']],
    ['items.find({"property.key":{"$match":"env"}})', ['app-1.0.jar']],
  ])('%s', async (text, expected) => {
    const res = await aql(text);
    expect(res.statusCode).toBe(200);
    expect(names(res).sort()).toEqual([...expected].sort());
  });

  it('answers the range, includes properties and statistics, pages with offset and limit', async () => {
    const res = await aql(
      'items.find({"repo":"libs","name":{"$match":"app-*"}}).include("name","repo","path","property","stat").sort({"$asc":["name"]}).offset(1).limit(1)',
    );
    const body = res.json() as { results: Record<string, unknown>[]; range: Record<string, number> };
    // Artifactory counts the results of the page, not of the whole match
    expect(body.range).toEqual({ start_pos: 1, end_pos: 2, total: 1, limit: 1 });
    expect(body.results).toEqual([
      {
        repo: 'libs',
        path: 'org/app',
        name: 'app-1.1.jar',
        properties: [{ key: 'build.number', value: '42' }],
        stats: [expect.objectContaining({ downloads: 2, downloaded_by: 'admin' })],
      },
    ]);
    const all = (await aql('items.find({"name":"top.jar"}).include("*")')).json() as {
      results: Record<string, unknown>[];
    };
    expect(all.results[0]).toMatchObject({ repo: 'libs', path: '.', type: 'file', size: 3, depth: 1 });
    expect(all.results[0]!.actual_sha1).toMatch(/^[0-9a-f]{40}$/);
  });

  it('answers the REST searches in Artifactory’s shapes, with the details X-Result-Detail asks for', async () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...ADMIN_BASIC, ...headers } });
    const uris = (res: { json: () => unknown }) =>
      (res.json() as { results: { uri: string }[] }).results.map((r) => r.uri.replace(/^http:\/\/[^/]+/, '')).sort();
    expect(uris(await get('/artifactory/api/search/artifact?name=app-*.jar&repos=libs'))).toEqual([
      '/artifactory/api/storage/libs/org/app/app-1.0.jar',
      '/artifactory/api/storage/libs/org/app/app-1.1.jar',
    ]);
    const sha1 = createHash('sha1').update('top').digest('hex');
    const byChecksum = await get(`/artifactory/api/search/checksum?sha1=${sha1}`, { 'x-result-detail': 'info' });
    expect((byChecksum.json() as { results: Record<string, unknown>[] }).results).toEqual([
      expect.objectContaining({
        repo: 'libs',
        path: '/top.jar',
        size: '3',
        checksums: expect.objectContaining({ sha1 }),
      }),
    ]);
    const byProperty = await get('/artifactory/api/search/prop?build.number=41,42&repos=libs', {
      'x-result-detail': 'properties',
    });
    expect(
      (byProperty.json() as { results: { properties: Record<string, string[]> }[] }).results.map(
        (r) => r.properties['build.number'],
      ),
    ).toEqual([['41'], ['42']]);
    expect(uris(await get('/artifactory/api/search/gavc?g=org.acme&a=demo&c=sources'))).toEqual([
      '/artifactory/api/storage/maven/org/acme/demo/1.0/demo-1.0-sources.jar',
    ]);
    expect((await get('/artifactory/api/search/artifact')).statusCode).toBe(400);

    // dates: created in a range; any of several date fields; not used since
    const created = (await get('/artifactory/api/search/creation?from=0&repos=libs')).json() as {
      results: { uri: string; created: string }[];
    };
    expect(created.results).toHaveLength(4);
    expect(created.results.every((r) => !Number.isNaN(Date.parse(r.created)))).toBe(true);
    expect(uris(await get('/artifactory/api/search/dates?dateFields=lastDownloaded&from=0'))).toEqual([
      '/artifactory/api/storage/libs/org/app/app-1.1.jar',
    ]);
    const now = Date.now();
    const unused = await get(
      `/artifactory/api/search/usage?notUsedSince=${now - 3_600_000}&createdBefore=${now + 60_000}&repos=libs`,
    );
    expect(uris(unused)).toEqual(
      ['org/app/app-1.0.jar', 'org/app/notes.txt', 'top.jar'].map((p) => `/artifactory/api/storage/libs/${p}`),
    );
    expect(
      (unused.json() as { results: { lastDownloaded: unknown }[] }).results.every((r) => r.lastDownloaded === null),
    ).toBe(true);
    expect((await get('/artifactory/api/search/dates?from=0')).statusCode).toBe(400);
    expect((await get('/artifactory/api/search/usage')).statusCode).toBe(400);
  });

  it('finds only what the caller may read', async () => {
    const reader = await createUser(t.app, 'reader');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/reader',
      headers: ADMIN_BASIC,
      payload: {
        repo: { repositories: ['libs'], 'include-patterns': ['org/**'], actions: { users: { reader: ['read'] } } },
      },
    });
    expect(names(await aql('items.find({"name":{"$match":"*"}})', reader)).sort()).toEqual(
      ['app-1.0.jar', 'app-1.1.jar', 'notes.txt'].sort(),
    );
    expect(names(await aql('items.find()'))).toContain('s.jar');
  });

  it('refuses a malformed or meaningless query with the position, and changes nothing', async () => {
    const broken = await aql('items.find({"repo":"libs"}');
    expect(broken.statusCode).toBe(400);
    expect((broken.json() as { errors: { message: string }[] }).errors[0]!.message).toBe(
      "Failed to parse query: Expected ')' but found the end of the query (at position 26)",
    );
    const unknown = await aql('items.find({"colour":"red"})');
    expect(unknown.statusCode).toBe(400);
    expect((unknown.json() as { errors: { message: string }[] }).errors[0]!.message).toContain(
      "Unknown field 'colour'",
    );
    const operator = await aql('items.find({"size":{"$near":3}})');
    expect((operator.json() as { errors: { message: string }[] }).errors[0]!.message).toContain(
      "Unknown operator '$near'",
    );
    // a query too large for the database is refused before it is compiled, with what to do
    const terms = (n: number) =>
      `items.find({"$or":[${Array.from({ length: n }, (_, i) => `{"name":{"$match":"a${i}*"}}`).join(',')}]})`;
    expect((await aql(terms(AQL_MAX_TERMS))).statusCode).toBe(200);
    for (const n of [AQL_MAX_TERMS + 1, 2000]) {
      const tooMany = await aql(terms(n));
      expect(tooMany.statusCode).toBe(400);
      expect((tooMany.json() as { errors: { message: string }[] }).errors[0]!.message).toMatch(
        /^Failed to parse query: The query compares more than 500 values: split it into several queries \(at position \d+\)$/,
      );
    }
    let deep = '{"name":"x"}';
    for (let i = 0; i < 70; i++) deep = `{"$or":[${deep},{"name":"y"}]}`;
    const tooDeep = await aql(`items.find(${deep})`);
    expect(tooDeep.statusCode).toBe(400);
    // text that looks like SQL is a value like any other
    expect(names(await aql('items.find({"name":"x\' OR 1=1 --"})'))).toEqual([]);
  });

  it('answers the console searches with the spec’s rules and messages, the trash can included', async () => {
    const search = (type: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/ui/api/v1/ui/artifactsearch/${type}`,
        headers: { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' },
        payload: body as object,
      });
    type Found = { results: { name: string; repoKey: string; relativePath: string }[]; searchResultsMessage: string };
    // a trailing * is added to the name
    const quick = (
      await search('quick', { query: 'app', selectedRepositories: ['libs'], search: 'quick' })
    ).json() as Found;
    expect(quick.results.map((r) => r.name).sort()).toEqual(['app-1.0.jar', 'app-1.1.jar']);
    expect(quick.searchResultsMessage).toBe('2 item(s)');
    const bad = await search('checksum', { checksum: 'abc', search: 'checksum' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { errors: { message: string }[] }).errors[0]!.message).toBe('Invalid Checksum Length');
    const md5 = createHash('md5').update('top').digest('hex');
    expect(((await search('checksum', { checksum: md5 })).json() as Found).results.map((r) => r.relativePath)).toEqual([
      'top.jar',
    ]);
    const property = (
      await search('property', {
        propertyKeyValues: [{ key: 'build.number', values: ['41', '4?x'] }],
        selectedRepositories: [{ repoKey: 'libs', isSelected: true }],
      })
    ).json() as Found;
    expect(property.results.map((r) => r.name)).toEqual(['app-1.0.jar']);
    const gavc = (await search('gavc', { groupID: 'org.acme', artifactID: 'demo' })).json() as Found;
    expect(gavc.results.map((r) => r.relativePath)).toEqual(['org/acme/demo/1.0/demo-1.0-sources.jar']);

    await t.app.inject({ method: 'DELETE', url: '/artifactory/libs/org/app/notes.txt', headers: ADMIN_BASIC });
    const trash = (await search('trash', { query: 'notes', isChecksum: false })).json() as Found;
    expect(trash.results.map((r) => [r.repoKey, r.relativePath])).toEqual([
      ['auto-trashcan', 'libs/org/app/notes.txt'],
    ]);
  });
});
