import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console's features import one another through their index only (ESLint holds that); this
 * holds the other half: no two features lean on each other, directly or round a circle. What
 * several features read (the repository list, the directory) lives in lib/queries instead.
 */

const FEATURES = path.resolve(import.meta.dirname, '../features');
const IMPORT = /from '((?:\.\.\/)+)([a-z-]+)(?:\/index)?'/g;

/** Each feature and the features its files import. */
export function featureGraph(root = FEATURES): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const feature of fs.readdirSync(root)) {
    const uses = new Set<string>();
    const folder = path.join(root, feature);
    for (const file of fs.readdirSync(folder, { recursive: true }) as string[]) {
      if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
      const depth = file.split(path.sep).length; // '../' count that leaves the feature
      for (const [, ups, name] of fs.readFileSync(path.join(folder, file), 'utf8').matchAll(IMPORT)) {
        if (ups!.length / 3 === depth && name !== feature && fs.existsSync(path.join(root, name!))) uses.add(name!);
      }
    }
    graph.set(feature, uses);
  }
  return graph;
}

/** The first circle found, as the features along it; undefined when there is none. */
export function circleIn(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const walk = (node: string, trail: string[]): string[] | undefined => {
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    if (state.get(node) === 'done') return undefined;
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      const found = walk(next, [...trail, node]);
      if (found) return found;
    }
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const found = walk(node, []);
    if (found) return found;
  }
  return undefined;
}

describe("the console's features", () => {
  it('import one another without a circle', () => {
    const graph = featureGraph();
    // the repository form: a proxy, a certificate, who may do what, the replications of the repository
    expect([...graph.get('repositories')!].sort()).toEqual(['keys', 'permissions', 'replications', 'settings']);
    expect(circleIn(graph)).toBeUndefined();
  });

  it('finds a planted circle', () => {
    const graph = featureGraph();
    const planted = new Map(graph);
    planted.set('keys', new Set([...(graph.get('keys') ?? []), 'repositories']));
    planted.set('repositories', new Set([...(graph.get('repositories') ?? []), 'keys']));
    expect(circleIn(planted)).toEqual(expect.arrayContaining(['keys', 'repositories']));
  });
});
