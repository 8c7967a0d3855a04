import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { openDatabase } from "./db/database.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";

/** Migrates, makes sure there is an administrator, listens, and closes cleanly on a signal. */
export async function serve(config: Config): Promise<void> {
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

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "closing after an error");
    else app.log.info({ signal }, "closing");
    await app.close();
    await db.close();
  });

  app.server.headersTimeout = 30_000;
  await app.listen({ port: config.port, host: config.host });
}
