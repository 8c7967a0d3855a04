#!/usr/bin/env node
import { Command } from "commander";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { AppError, NotFound } from "./http/errors.js";
import { ApiTokensRepository } from "./modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "./modules/api-tokens/api-tokens.service.js";
import { buildSearch } from "./modules/search/search.compose.js";
import { SharedSecrets } from "./modules/secrets/shared-secrets.js";
import { UsersRepository } from "./modules/users/users.repository.js";
import { UsersService } from "./modules/users/users.service.js";
import { serve, work } from "./server.js";
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
  .option("--no-workers", "run no job workers in this process (run `dams worker` processes instead)")
  .action(async (options: { workers: boolean }) => serve(config(), { workers: options.workers }));

program
  .command("worker")
  .description("run job workers only (DAMS_WORKERS at once), no HTTP; start several for scale")
  .action(async () => work(config()));

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

program
  .command("reindex")
  .description("rebuild the search index from the stories (searches see a partial index while it runs)")
  .action(async () => {
    const db = openDatabase(config().database);
    try {
      await db.migrateToLatest();
      const count = await buildSearch(db).service.rebuild();
      process.stdout.write(`indexed ${count} stories\n`);
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

const secrets = program
  .command("secrets")
  .description("the keys every node shares (OIDC, media URLs, channel credentials): names and fingerprints");
secrets
  .command("list")
  .description("list the shared keys: where each comes from and its fingerprint (never the key)")
  .action(async () => {
    const db = openDatabase(config().database);
    try {
      await db.migrateToLatest();
      for (const row of await new SharedSecrets(db).list()) {
        process.stdout.write(`${row.name}\t${row.source}\t${row.fingerprint.slice(0, 12)}\t${row.updated_at}\n`);
      }
    } finally {
      await db.close();
    }
  });
secrets
  .command("reset <name>")
  .description(
    "forget a shared key, to change it on purpose: stop every node first; the next to start records or makes it anew",
  )
  .action(async (name: string) => {
    const db = openDatabase(config().database);
    try {
      await db.migrateToLatest();
      if (!(await new SharedSecrets(db).reset(name))) throw new NotFound(`no shared key ${name}`, "secret_not_found");
      process.stdout.write(`forgot ${name}\n`);
    } finally {
      await db.close();
    }
  });

const token = program.command("token").description("manage personal API tokens");
token
  .command("create <username>")
  .description("create an API token for a user and print it (shown once; only its hash is stored)")
  .option("--name <name>", "what the token is for", "cli")
  .option("--days <days>", "expire after this many days (default: never)")
  .action(async (username: string, options: { name: string; days?: string }) => {
    const days = options.days === undefined ? undefined : Number(options.days);
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 3650)) {
      throw new ConfigError("--days must be a whole number of days from 1 to 3650");
    }
    const db = openDatabase(config().database);
    try {
      await db.migrateToLatest();
      const user = await new UsersRepository(db).findByUsername(username);
      if (!user) throw new NotFound(`user ${username} does not exist`, "user_not_found");
      if (user.status !== 1) throw new ConfigError(`user ${username} is disabled`);
      const created = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, {
        name: options.name,
        expiresInDays: days,
      });
      process.stdout.write(`${created.secret}\n`);
    } finally {
      await db.close();
    }
  });

program.parseAsync().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof AppError;
  process.stderr.write(`dams: ${known ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
