import nodemailer from "nodemailer";
import type { EmailSettings } from "../channels.schema.js";
import { DeliveryError, type DeliveryPackage, type Transport } from "./transport.js";

function mailReason(error: unknown, where: string): DeliveryError {
  const { code, responseCode, message } = error as { code?: string; responseCode?: number; message: string };
  if (code === "EAUTH") return new DeliveryError(`${where} refused the login (${message})`, false);
  if (code === "ECONNECTION" || code === "ESOCKET")
    return new DeliveryError(`${where} could not be reached (${message})`, true);
  if (code === "ETIMEDOUT") return new DeliveryError(`${where} did not answer in time`, true);
  if (responseCode && responseCode >= 500) return new DeliveryError(`${where} refused the message: ${message}`, false);
  return new DeliveryError(`${where}: ${message}`, true);
}

/**
 * E-mail over SMTP (nodemailer): the item as the text and as an attachment,
 * the files attached when the channel says so. A kill is a mail saying the
 * story is withdrawn, with the kill item.
 */
export class EmailTransport implements Transport {
  constructor(
    private readonly settings: EmailSettings,
    private readonly credentials: Record<string, string>,
  ) {}

  get #where(): string {
    return `${this.settings.host}:${this.settings.port}`;
  }

  #transport() {
    const { settings, credentials } = this;
    return nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: settings.requireTls,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
      auth: credentials.username ? { user: credentials.username, pass: credentials.password ?? "" } : undefined,
    });
  }

  async test(): Promise<string> {
    const transport = this.#transport();
    try {
      await transport.verify();
    } catch (error) {
      throw mailReason(error, this.#where);
    } finally {
      transport.close();
    }
    return `${this.#where} accepted the connection${this.credentials.username ? " and the login" : ""}`;
  }

  async deliver(delivery: DeliveryPackage): Promise<void> {
    const transport = this.#transport();
    const kill = delivery.action === "kill";
    try {
      const files = kill || !this.settings.attachFiles ? [] : delivery.files;
      await transport.sendMail({
        from: this.settings.from,
        to: this.settings.to,
        subject: kill ? `WITHDRAWN: ${delivery.title}` : delivery.title,
        messageId: `<${delivery.deliveryId}@dams>`,
        headers: { "X-Dams-Delivery": delivery.deliveryId },
        text: kill
          ? `This story is withdrawn: do not use it.\n\n${delivery.title}`
          : `${delivery.title}\n\n${files.map((file) => file.name).join("\n")}`,
        attachments: [
          ...(await Promise.all(
            files.map(async (file) => ({ filename: file.name, contentType: file.mime, content: await file.open() })),
          )),
          { filename: delivery.item.name, contentType: delivery.item.mime, content: delivery.item.body },
        ],
      });
    } catch (error) {
      throw mailReason(error, this.#where);
    } finally {
      transport.close();
    }
  }
}
