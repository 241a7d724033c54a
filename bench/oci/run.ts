/**
 * Container images: push and pull of a 500 MB image (5 layers of incompressible content) with
 * skopeo to Arca and to Debian's `docker-registry` (the CNCF distribution registry), both fresh on
 * loopback, alternated, 5 runs each (new random layers and a new image name per run, so that every
 * push uploads every byte: skopeo remembers where it saw a blob and would mount it instead). Prints the median seconds and the ratios Arca / registry.
 * Target: Arca within 1.1× of the distribution registry for push and pull.
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeOciLayout } from '../../packages/web/e2e/clients/oci-layout.ts';
import { ADMIN_PASSWORD, startServer } from '../../packages/web/e2e/harness.ts';
import { AUTH, build, freePort, installDebianPackages, median } from '../lib/bench.ts';

const SIZE_MB = Number(process.env.BENCH_SIZE_MB ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LAYERS = 5;

installDebianPackages('skopeo', 'docker-registry');
await build();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-oci-'));
const layerBytes = Math.floor((SIZE_MB * 1024 * 1024) / LAYERS);
/** A fresh image of random layers for one run. */
async function makeLayout(run: number): Promise<string> {
  const layout = path.join(work, `layout-${run}`);
  await writeOciLayout(layout, 'bench', [
    {
      platform: { architecture: 'amd64', os: 'linux' },
      layers: Array.from({ length: LAYERS }, (_, i) => ({ [`data/layer-${i}.bin`]: crypto.randomBytes(layerBytes) })),
    },
  ]);
  return layout;
}

const registryPort = await freePort();
const registryDir = path.join(work, 'registry');
fs.mkdirSync(registryDir);
fs.writeFileSync(
  path.join(registryDir, 'config.yml'),
  `version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: ${registryDir}/data\nhttp:\n  addr: 127.0.0.1:${registryPort}\n`,
);
const registry = spawn('/usr/bin/docker-registry', ['serve', path.join(registryDir, 'config.yml')], {
  stdio: 'ignore',
});
const arca = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' });

/** One skopeo copy with an empty cache of its own; answers the seconds it took. */
function skopeo(args: string[]): number {
  const home = fs.mkdtempSync(path.join(work, 'home-'));
  const started = process.hrtime.bigint();
  execFileSync('skopeo', args, { env: { ...process.env, HOME: home }, stdio: 'pipe' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  fs.rmSync(home, { recursive: true, force: true });
  return seconds;
}

try {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${registryPort}/v2/`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const res = await fetch(`${arca.url}/artifactory/api/repositories/docker-local`, {
    method: 'PUT',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'docker' }),
  });
  if (!res.ok) throw new Error(`creating docker-local: ${res.status}`);
  const targets = {
    Arca: {
      image: (run: number) => `${arca.url.replace('http://', '')}/docker-local/bench/big-${run}:1`,
      creds: `admin:${ADMIN_PASSWORD}`,
    },
    registry: { image: (run: number) => `127.0.0.1:${registryPort}/bench/big-${run}:1`, creds: '' },
  };
  const times: Record<string, number[]> = {};
  for (let run = 0; run < RUNS; run++) {
    const layout = await makeLayout(run);
    for (const [name, target] of Object.entries(targets)) {
      const creds = (flag: string) => (target.creds ? [flag, target.creds] : []);
      (times[`${name} push`] ??= []).push(
        skopeo([
          'copy',
          '--dest-tls-verify=false',
          ...creds('--dest-creds'),
          `oci:${layout}:bench`,
          `docker://${target.image(run)}`,
        ]),
      );
      const out = path.join(work, `pull-${name}-${run}`);
      (times[`${name} pull`] ??= []).push(
        skopeo([
          'copy',
          '--src-tls-verify=false',
          ...creds('--src-creds'),
          `docker://${target.image(run)}`,
          `dir:${out}`,
        ]),
      );
      fs.rmSync(out, { recursive: true, force: true });
    }
    fs.rmSync(layout, { recursive: true, force: true });
  }
  console.log(`\nskopeo, ${SIZE_MB} MB image in ${LAYERS} layers, median of ${RUNS} (alternating):`);
  for (const op of ['push', 'pull']) {
    const a = median(times[`Arca ${op}`]!);
    const r = median(times[`registry ${op}`]!);
    console.log(
      `  ${op}  Arca ${a.toFixed(2)} s (${(SIZE_MB / a).toFixed(0)} MB/s)   distribution registry ${r.toFixed(2)} s (${(SIZE_MB / r).toFixed(0)} MB/s)   ratio ${(a / r).toFixed(2)} (target ≤ 1.1)`,
    );
  }
} finally {
  registry.kill('SIGTERM');
  await arca.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
