import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const DEPLOY = path.resolve(import.meta.dirname, '../../../docs/deploy');
const read = (name: string) => fs.readFileSync(path.join(DEPLOY, name), 'utf8');

describe('the shipped service files', () => {
  // a service manager that kills before the grace period is over cuts the downloads the node was finishing
  it('wait longer for a stopping node than its grace period, with a margin for closing', () => {
    const grace = loadConfig({}).stopGraceMs / 1000;
    const unit = Number(/^TimeoutStopSec=(\d+)$/m.exec(read('arca.service'))?.[1]);
    const compose = Number(/^\s*stop_grace_period: (\d+)s$/m.exec(read('compose.yaml'))?.[1]);
    expect(unit).toBeGreaterThanOrEqual(grace + 15);
    expect(compose).toBeGreaterThanOrEqual(grace + 15);
    expect(read('arca.service')).toMatch(/^KillSignal=SIGTERM$/m);
  });

  it('start the server as the process the stop signal reaches', () => {
    // the exec form: node is PID 1 and gets SIGTERM itself (a shell would swallow it)
    expect(read('Dockerfile')).toMatch(/^CMD \["node", "packages\/server\/dist\/main\.js"\]$/m);
    expect(read('arca.service')).toMatch(/^ExecStart=\/usr\/bin\/node packages\/server\/dist\/main\.js$/m);
  });
});
