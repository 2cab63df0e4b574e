import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the in-process SMTP server accepted. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** Decoded headers and text part (see decodeMail). */
  subject: string;
  messageId: string;
  text: string;
  html: string;
  /** Parts sent as `Content-Disposition: attachment`, transfer-decoded. */
  attachments: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) of a header value. */
function decodeWords(v: string): string {
  return v
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : qp(data.replace(/_/g, ' ')),
    );
}

/** Quoted-printable → UTF-8 text. */
function qp(s: string): string {
  const bytes: number[] = [];
  const t = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '=' && /^[0-9A-F]{2}$/i.test(t.slice(i + 1, i + 3))) {
      bytes.push(parseInt(t.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(t[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function header(block: string, name: string): string {
  const m = new RegExp(`^${name}:((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(block);
  return m ? decodeWords(m[1]!.replace(/\r?\n[ \t]/g, ' ').trim()) : '';
}

/** The body of the MIME part of `type` (text/plain, text/html), transfer-decoded. */
function part(raw: string, type: string): string {
  const re = new RegExp(`Content-Type: ${type}[^]*?\\r?\\n\\r?\\n`, 'i');
  const m = re.exec(raw);
  if (!m) return '';
  const head = m[0];
  const rest = raw.slice(m.index + head.length);
  const end = rest.search(/\r?\n--/);
  const body = end < 0 ? rest : rest.slice(0, end);
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) return qp(body);
  return body;
}

/** A MIME parameter of a header (`filename`, `name`): quoted, RFC 2231 (`*=`, `*0*=` …) or encoded words. */
function mimeParam(head: string, name: string): string {
  const h = head.replace(/\r?\n[ \t]/g, ' ');
  const parts: string[] = [];
  const cont = new RegExp(`;\\s*${name}\\*(\\d+)(\\*?)=("[^"]*"|[^;\\s]*)`, 'gi');
  let encoded = false;
  for (const m of h.matchAll(cont)) {
    parts[Number(m[1])] = m[3]!.replace(/^"|"$/g, '');
    if (m[2] === '*' && m[1] === '0') encoded = true;
  }
  let v: string | undefined;
  if (parts.length > 0) v = parts.join('');
  else {
    const ext = new RegExp(`;\\s*${name}\\*=([^;\\s]*)`, 'i').exec(h);
    if (ext) {
      v = ext[1]!;
      encoded = true;
    } else v = new RegExp(`;\\s*${name}=("[^"]*"|[^;\\s]*)`, 'i').exec(h)?.[1]?.replace(/^"|"$/g, '');
  }
  if (v === undefined) return '';
  if (encoded) return decodeURIComponent(v.replace(/^[^']*'[^']*'/, ''));
  return decodeWords(v);
}

/** The attachments of a raw message: every part (of any multipart level) marked `attachment`. */
function attachmentsOf(raw: string): MailAttachment[] {
  const out: MailAttachment[] = [];
  for (const b of raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)) {
    for (const seg of raw.split(`--${b[1]!}`).slice(1)) {
      const headEnd = seg.search(/\r?\n\r?\n/);
      if (headEnd < 0) continue;
      const head = seg.slice(0, headEnd);
      if (!/^Content-Disposition:\s*attachment/im.test(head)) continue;
      const body = seg.slice(headEnd).replace(/^\r?\n\r?\n/, '');
      const type = /^Content-Type:\s*([^;\r\n]+)/im.exec(head)?.[1]?.trim() ?? '';
      const disposition = /^Content-Disposition:.*(?:\r?\n[ \t].*)*/im.exec(head)?.[0] ?? '';
      const ctype = /^Content-Type:.*(?:\r?\n[ \t].*)*/im.exec(head)?.[0] ?? '';
      const content = /Content-Transfer-Encoding:\s*base64/i.test(head)
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
        : Buffer.from(body.replace(/\r?\n$/, ''), 'utf8');
      out.push({ filename: mimeParam(disposition, 'filename') || mimeParam(ctype, 'name'), contentType: type, content });
    }
  }
  return out;
}

export function decodeMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const headEnd = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, headEnd);
  return {
    ...envelope,
    raw,
    subject: header(head, 'Subject'),
    messageId: header(head, 'Message-ID'),
    text: part(raw, 'text/plain'),
    html: part(raw, 'text/html'),
    attachments: attachmentsOf(raw),
  };
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), keeping what it accepts. `down()` closes it
 * (connections are refused), `up()` listens again on the same port.
 */
export class TestSmtp {
  readonly received: ReceivedMail[] = [];
  port = 0;
  private server: SMTPServer | undefined;
  /**
   * Misbehaviour per recipient: refuse RCPT TO with a code, answer the final dot with a code
   * (the message is not kept), or keep the message and drop the connection without answering
   * the final dot (delivery unknown to the client).
   */
  readonly rules = new Map<string, { rcpt?: number; dataEnd?: number; dropAfterBody?: boolean }>();

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const code = this.rules.get(address.address)?.rcpt;
        if (code) callback(Object.assign(new Error(`${code} recipient refused`), { responseCode: code }));
        else callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          const rule = envelope.to.map((a) => this.rules.get(a)).find((r) => r !== undefined);
          if (rule?.dataEnd) {
            callback(Object.assign(new Error(`${rule.dataEnd} message refused`), { responseCode: rule.dataEnd }));
            return;
          }
          this.received.push(decodeMail(Buffer.concat(chunks).toString('utf8'), envelope));
          if (rule?.dropAfterBody) {
            // Kept, but the client never hears the answer to its final dot.
            const connections = (server as unknown as { connections: Set<{ session: unknown; _socket: { destroy(): void } }> }).connections;
            for (const c of connections) if (c.session === session) c._socket.destroy();
            return;
          }
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }
}
