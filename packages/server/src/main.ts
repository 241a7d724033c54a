import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/** Starts Arca with the configuration of the environment and stops it cleanly on SIGINT/SIGTERM. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const { app, generatedAdminPassword } = await buildApp(config);
  if (generatedAdminPassword) {
    app.accessLog.warn(
      { user: 'admin' },
      `Created the user 'admin' with the generated password ${generatedAdminPassword} (shown once; set ARCA_ADMIN_PASSWORD to choose it)`,
    );
  }
  const stop = (signal: string) => {
    app.log.info({ signal }, 'stopping');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(`Arca is listening on ${address}; the console is at ${address}/ui/`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
