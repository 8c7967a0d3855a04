import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.js";
import { type Config, ConfigError } from "./config.js";
import { openDatabase } from "./db/database.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";

export interface ServeOptions {
  /** Run the job workers in this process (config.jobs.workers of them); `dams serve --no-workers` turns them off. */
  workers?: boolean;
}

/** How long a signal may take to close the process: the workers' stop limit, plus time for the rest. */
function closeDelay(config: Config): number {
  return config.jobs.stopTimeoutMs + 5_000;
}

/** Migrates, makes sure there is an administrator, listens, and closes cleanly on a signal. */
export async function serve(config: Config, options: ServeOptions = {}): Promise<void> {
  const db = openDatabase(config.database);
  await db.migrateToLatest();
  const app = await buildApp({ config, db });

  const firstAdmin = await new UsersService(new UsersRepository(db)).ensureFirstAdmin(
    config.admin.username,
    config.admin.password,
  );
  if (firstAdmin.created) {
    const shown = firstAdmin.password ?? "(the DAMS_ADMIN_PASSWORD you configured)";
    // Printed once, to the terminal, on purpose: it is the only way to learn a generated password.
    process.stdout.write(
      `\n  First administrator created.\n  username: ${config.admin.username}\n  password: ${shown}\n\n`,
    );
  }

  closeWithGrace({ delay: closeDelay(config) }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "closing after an error");
    else app.log.info({ signal }, "closing");
    // app.close() also stops the workers: their running jobs finish or are handed back to the queue.
    await app.close();
    await db.close();
  });

  app.server.headersTimeout = 30_000;
  await app.listen({ port: config.port, host: config.host });
  if (options.workers !== false && config.jobs.workers > 0) app.jobs.worker.start();
  else app.log.info("job workers off in this process (--no-workers or DAMS_WORKERS=0)");
}

/**
 * `dams worker`: job workers only, no HTTP. The app is composed (not
 * listening) so the worker has exactly the job definitions `dams serve` has.
 */
export async function work(config: Config): Promise<void> {
  if (config.jobs.workers === 0) throw new ConfigError("DAMS_WORKERS is 0: there would be no worker to run");
  const db = openDatabase(config.database);
  await db.migrateToLatest();
  const app = await buildApp({ config, db });
  await app.ready();

  closeWithGrace({ delay: closeDelay(config) }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "closing after an error");
    else app.log.info({ signal }, "closing");
    await app.close();
    await db.close();
  });
  app.jobs.worker.start();
}
