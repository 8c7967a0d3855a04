import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../../test/ports.js";

/** Debian's OpenSSH server, where scripts/setup.mjs installs it (package openssh-server). */
const SSHD = ["/usr/sbin/sshd", "/usr/bin/sshd"].find((candidate) => fs.existsSync(candidate));

export interface TestSshd {
  host: string;
  port: number;
  username: string;
  /** The client's OpenSSH private key (ed25519), whose public key the server authorizes. */
  privateKey: string;
  /** The server's host key fingerprint as channels pin it: SHA-256, base64 without padding. */
  hostKeySha256: string;
  /** A directory the user can write, to deliver into. */
  directory: string;
  close(): Promise<void>;
}

/**
 * Whether a test may run without sshd: never on CI (`CI` set), where a missing sshd is a broken set-up;
 * elsewhere the SFTP tests are skipped with a loud warning.
 */
export function sshdMissing(): boolean {
  if (SSHD) return false;
  if (process.env.CI)
    throw new Error("sshd is not installed (apt-get install openssh-server; scripts/setup.mjs does it)");
  console.warn(
    "\n*** WARNING: /usr/sbin/sshd is missing: the SFTP delivery tests are SKIPPED. Install it with " +
      "`apt-get install openssh-server` (scripts/setup.mjs does it as root). ***\n",
  );
  return true;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("data", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Starts sshd on a free high port of 127.0.0.1, as the current user, with a host key and an authorized client
 * key generated here, SFTP by the internal server, no passwords, and everything in a temporary directory.
 */
export async function startSshd(): Promise<TestSshd> {
  if (!SSHD) throw new Error("sshd is not installed");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-sshd-"));
  fs.chmodSync(dir, 0o755);
  const hostKey = path.join(dir, "host_ed25519");
  const clientKey = path.join(dir, "client_ed25519");
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "dams-test-host", "-f", hostKey]);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "dams-test-client", "-f", clientKey]);
  const authorized = path.join(dir, "authorized_keys");
  fs.copyFileSync(`${clientKey}.pub`, authorized);
  fs.chmodSync(authorized, 0o600);
  const fingerprint = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${hostKey}.pub`], { encoding: "utf8" });
  const hostKeySha256 = /SHA256:([A-Za-z0-9+/]+)/.exec(fingerprint)?.[1];
  if (!hostKeySha256) throw new Error(`no fingerprint in ${fingerprint}`);
  const directory = path.join(dir, "inbox");
  fs.mkdirSync(directory);
  const username = os.userInfo().username;
  // Started as root, sshd wants its privilege separation directory (Debian makes it when the service starts).
  if (process.getuid?.() === 0) fs.mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });

  for (let tries = 0; ; tries++) {
    const port = await freePort();
    const config = path.join(dir, "sshd_config");
    fs.writeFileSync(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${hostKey}`,
        `PidFile ${path.join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${authorized}`,
        `AllowUsers ${username}`,
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "StrictModes no",
        "Subsystem sftp internal-sftp",
        "LogLevel ERROR",
        "",
      ].join("\n"),
    );
    const child: ChildProcess = spawn(SSHD, ["-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let exited = false;
    child.once("exit", () => {
      exited = true;
    });
    // Polls until sshd accepts (every 100 ms); the bound only stops a daemon that never comes up on a busy machine.
    const deadline = Date.now() + 60_000;
    while (!exited && Date.now() < deadline && !(await accepting(port))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!exited && (await accepting(port))) {
      return {
        host: "127.0.0.1",
        port,
        username,
        privateKey: fs.readFileSync(clientKey, "utf8"),
        hostKeySha256,
        directory,
        async close() {
          if (!exited) {
            const gone = new Promise((resolve) => child.once("exit", resolve));
            child.kill("SIGTERM");
            await gone;
          }
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill("SIGKILL");
    // Another process took the port between the probe and sshd's bind: try another one.
    if (tries >= 3) throw new Error(`sshd did not start: ${stderr.trim()}`);
  }
}
