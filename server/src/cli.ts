#!/usr/bin/env node
import { Command } from "commander";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { AppError } from "./http/errors.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";
import { serve } from "./server.js";
import { version } from "./version.js";

function config(): Config {
  return loadConfig();
}

async function withUsers<T>(work: (users: UsersService) => Promise<T>): Promise<T> {
  const db = openDatabase(config().database);
  try {
    await db.migrateToLatest();
    return await work(new UsersService(new UsersRepository(db)));
  } finally {
    await db.close();
  }
}

function passwordFrom(option: string | undefined): string {
  const password = option ?? process.env.DAMS_PASSWORD;
  if (!password) throw new ConfigError("give the password with --password or the DAMS_PASSWORD variable");
  return password;
}

const program = new Command()
  .name("dams")
  .description("dams — digital asset management for newsrooms")
  .version(version);

program
  .command("serve")
  .description("serve the API, the web app and the sign-in server, with in-process workers")
  .action(async () => serve(config()));

program
  .command("migrate")
  .description("apply pending database migrations")
  .action(async () => {
    const db = openDatabase(config().database);
    try {
      const applied = await db.migrateToLatest();
      process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
    } finally {
      await db.close();
    }
  });

const user = program.command("user").description("manage user accounts");
user
  .command("create <username>")
  .description("create a user")
  .option("--name <name>", "display name")
  .option("--password <password>", "password (or DAMS_PASSWORD)")
  .option("--admin", "make the user an administrator", false)
  .action(async (username: string, options: { name?: string; password?: string; admin: boolean }) => {
    const password = passwordFrom(options.password);
    await withUsers((users) => users.createUser({ username, name: options.name, password, admin: options.admin }));
    process.stdout.write(`created user ${username}\n`);
  });
user
  .command("passwd <username>")
  .description("set a user's password")
  .option("--password <password>", "password (or DAMS_PASSWORD)")
  .action(async (username: string, options: { password?: string }) => {
    const password = passwordFrom(options.password);
    await withUsers((users) => users.setPassword(username, password));
    process.stdout.write(`password changed for ${username}\n`);
  });

program.parseAsync().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof AppError;
  process.stderr.write(`dams: ${known ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
