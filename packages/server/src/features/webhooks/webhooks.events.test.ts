import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@arca/contracts';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { domainEventsOf } from './webhooks.events.js';

/** What webhooks of each release bundle domain are told of the events a source and a target record. */
describe('release bundle events as webhooks see them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  const stored = (event: Omit<StoredEvent, 'id' | 'seq' | 'actor' | 'createdAt'>) =>
    ({ ...event, id: 'e1', seq: 1, actor: 'admin', createdAt: Date.now() }) as StoredEvent;
  const bundle = { name: 'web', version: '1.0', project: 'default' };
  const told = async (event: StoredEvent) =>
    (await domainEventsOf(t.app, event)).map((e) => [e.domain, e.eventType, e.data]);

  it('tells a target of a version received and deleted in both of its domains', async () => {
    expect(
      await told(stored({ type: 'release_bundle.received', payload: { ...bundle, from: 'https://hq', artifacts: 3 } })),
    ).toEqual([
      [
        'artifactory_release_bundle',
        'received',
        expect.objectContaining({ release_bundle_name: 'web', release_bundle_size: 3, source: 'https://hq' }),
      ],
      ['destination', 'received', expect.objectContaining({ release_bundle_version: '1.0', source: 'https://hq' })],
    ]);
    expect(
      (await told(stored({ type: 'release_bundle.removed', payload: { ...bundle, from: 'https://hq' } }))).map((e) =>
        e.slice(0, 2),
      ),
    ).toEqual([
      ['artifactory_release_bundle', 'deleted'],
      ['destination', 'delete_completed'],
    ]);
  });

  it('tells a source of each step of a distribution, an abort included', async () => {
    const step = (status: 'started' | 'completed' | 'aborted' | 'failed', action: 'distribute' | 'delete') =>
      stored({ type: 'distribution.changed', payload: { ...bundle, status, action, target: 'edge-eu' } });
    expect(await told(step('aborted', 'distribute'))).toEqual([
      [
        'distribution',
        'distribute_aborted',
        expect.objectContaining({
          type: 'distribute',
          status: 'aborted',
          edge_node_info_list: [{ site_name: 'edge-eu', status: 'aborted' }],
        }),
      ],
    ]);
    expect((await told(step('started', 'delete')))[0]!.slice(0, 2)).toEqual(['distribution', 'delete_started']);
  });
});
