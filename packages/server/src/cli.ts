import { parseArgs } from 'node:util';
import { LICENSE_EDITIONS, type LicenseEdition } from '@arca/contracts';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { LicenseService } from './features/license/license.service.js';

const USAGE = `Usage: arca license issue --edition EDITION --licensee NAME [--days N]

Prints a licence key signed with this deployment's issuer key (<data>/keys).
Editions: ${LICENSE_EDITIONS.filter((e) => e !== 'NONE').join(', ')}.
Without --days the licence never expires.`;

/** Command-line administration of a deployment. Returns the process exit code. */
export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [area, command, ...rest] = argv;
  if (area !== 'license' || command !== 'issue') {
    out(USAGE);
    return area === undefined || area === '--help' ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { edition: { type: 'string' }, licensee: { type: 'string' }, days: { type: 'string' } },
  });
  const edition = values.edition as LicenseEdition | undefined;
  if (!edition || edition === 'NONE' || !LICENSE_EDITIONS.includes(edition) || !values.licensee) {
    out(USAGE);
    return 2;
  }
  const days = values.days === undefined ? null : Number(values.days);
  if (days !== null && (!Number.isInteger(days) || days < 1)) {
    out('--days must be a whole number of at least 1');
    return 2;
  }
  const config = loadConfig();
  const { db } = openDatabase({ dataDir: config.dataDir });
  try {
    const service = new LicenseService(db, config.dataDir, []);
    out(service.issue({ edition, licensee: values.licensee, days }));
    return 0;
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
