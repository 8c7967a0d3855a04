import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FolderSettings } from "../channels.schema.js";
import { DeliveryError, type DeliveryPackage, type Transport } from "./transport.js";

/**
 * A folder on the server's disk (an NFS or SMB mount, a hot folder): the
 * files, then the item, each written to a temporary name and renamed, so a
 * watcher never sees half a file and the item arrives last. A kill removes
 * the story's files and writes the kill item in their place.
 */
export class FolderTransport implements Transport {
  constructor(private readonly settings: FolderSettings) {}

  #directory(): string {
    const directory = this.settings.path;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(directory);
    } catch {
      throw new DeliveryError(`the folder ${directory} does not exist on the server`, true);
    }
    if (!stat.isDirectory()) throw new DeliveryError(`${directory} is not a folder`, false);
    return directory;
  }

  async test(): Promise<string> {
    const directory = this.#directory();
    const probe = path.join(directory, `.dams-probe-${randomUUID()}`);
    try {
      fs.writeFileSync(probe, "");
      fs.rmSync(probe);
    } catch (error) {
      throw new DeliveryError(
        `the server cannot write to ${directory} (${(error as NodeJS.ErrnoException).code})`,
        false,
      );
    }
    return `${directory} exists and the server can write to it`;
  }

  async deliver(delivery: DeliveryPackage, signal: AbortSignal): Promise<void> {
    const directory = this.#directory();
    try {
      if (delivery.action === "kill") {
        for (const name of fs.readdirSync(directory)) {
          if (name.startsWith(`${delivery.baseName}.`) && name !== delivery.item.name)
            fs.rmSync(path.join(directory, name), { force: true });
        }
      }
      for (const file of delivery.action === "publish" ? delivery.files : []) {
        const temporary = path.join(directory, `.${file.name}.${delivery.deliveryId}.part`);
        await pipeline(await file.open(), fs.createWriteStream(temporary), { signal });
        fs.renameSync(temporary, path.join(directory, file.name));
      }
      const temporary = path.join(directory, `.${delivery.item.name}.${delivery.deliveryId}.part`);
      fs.writeFileSync(temporary, delivery.item.body);
      fs.renameSync(temporary, path.join(directory, delivery.item.name));
    } catch (error) {
      if (error instanceof DeliveryError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new DeliveryError(`writing to ${directory} failed: ${code ?? (error as Error).message}`, code !== "EACCES");
    }
  }
}
