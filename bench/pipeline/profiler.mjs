/**
 * Loaded into a server by the pipeline benchmark (`NODE_OPTIONS=--import <this>`; plain
 * JavaScript, as the server's own worker threads load it too): in the main thread, a SIGUSR2
 * starts a CPU profile and the next writes it to `BENCH_PROFILE_FILE`, and so on.
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_PROFILE_FILE;
if (file && isMainThread) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!running) {
        running = true;
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 100 });
        await session.post('Profiler.start');
        return;
      }
      running = false;
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(`${file}.part`, JSON.stringify(profile));
      fs.renameSync(`${file}.part`, file);
    })();
  });
}
