import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  text: string;
  attachments: ReceivedAttachment[];
  raw: string;
}

/** Header lines (unfolded), lower-cased names. */
function headersOf(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decode(body: string, encoding: string | undefined): Buffer {
  if (encoding?.toLowerCase() === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64");
  if (encoding?.toLowerCase() === "quoted-printable") {
    const bytes = body
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1");
  }
  return Buffer.from(body, "utf8");
}

const parameter = (header: string | undefined, name: string) =>
  header ? new RegExp(`${name}="?([^";]+)"?`, "i").exec(header)?.[1] : undefined;

/**
 * Just enough MIME to read what nodemailer sends (multipart/mixed of a text part and base64 attachments; the
 * file names our channels use are ASCII). A mail it cannot read fails the test that reads it.
 */
export function parseMail(raw: string): Omit<ReceivedMail, "from" | "to"> {
  const split = raw.indexOf("\r\n\r\n");
  const headers = headersOf(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const boundary = parameter(headers["content-type"], "boundary");
  if (!boundary)
    return { headers, text: decode(body, headers["content-transfer-encoding"]).toString(), attachments: [], raw };
  let text = "";
  const attachments: ReceivedAttachment[] = [];
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith("--")) break;
    const cut = part.indexOf("\r\n\r\n");
    const partHeaders = headersOf(part.slice(2, cut));
    const content = decode(part.slice(cut + 4).replace(/\r\n$/, ""), partHeaders["content-transfer-encoding"]);
    const filename = parameter(partHeaders["content-disposition"], "filename");
    if (filename) {
      attachments.push({ filename, contentType: (partHeaders["content-type"] ?? "").split(";")[0]!.trim(), content });
    } else text += content.toString("utf8");
  }
  return { headers, text, attachments, raw };
}

/**
 * A local SMTP receiver (the `smtp-server` package) as a test starts it: no TLS, a login checked against the
 * given user and password, every mail kept parsed.
 */
export async function startSmtpReceiver(login: { user: string; pass: string }) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.pass) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
