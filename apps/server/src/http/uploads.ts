import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, type UploadRule } from '@sunwatch/protocol';
import type { FastifyRequest } from 'fastify';
import type { AuthorizedCall } from './dispatcher.js';
import { addParam, printableKey } from './params.js';
import type { UploadedFile } from './registry.js';

/** Limits on the parts of a multipart call besides the declared files (busboy limits). */
const FIELD_LIMITS = { fields: 64, fieldSize: 64 * 1024, fieldNameSize: 128, parts: 80 } as const;

/** One call's temporary upload directory, created on the first file and removed after the call. */
export class UploadDir {
  readonly files: UploadedFile[] = [];
  private dir: string | undefined;

  async newPath(): Promise<string> {
    this.dir ??= await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sunwatch-upload-'));
    return path.join(this.dir, String(this.files.length));
  }

  /** Deletes every file of the call (also after errors and refused uploads). */
  async remove(): Promise<void> {
    if (this.dir) await fs.promises.rm(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** Counts bytes while they pass; fails with err 13 as soon as the limit is exceeded. */
function byteLimit(field: string, maxBytes: number, onSize: (n: number) => void): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      onSize(size);
      if (size > maxBytes) done(new ApiError(13, printableKey(field)));
      else done(null, chunk);
    },
  });
}

/**
 * Reads the parts of an authorized multipart call. Text fields join the parameters (a key
 * already present → err 6; unsigned fields follow the sign scope rules through `admit`). A file
 * is accepted only in the field the action's upload rule declares, with an allowed extension
 * (else err 6), and is streamed to disk with its size limit enforced while streaming (err 13);
 * nothing is buffered in memory.
 */
export async function readMultipart(
  request: FastifyRequest,
  call: AuthorizedCall,
  params: Record<string, string>,
  uploads: UploadDir,
  admit: (keys: string[]) => void,
): Promise<void> {
  const rule = call.def.upload;
  const maxFiles = rule ? (rule.maxFiles ?? 1) : 0;
  // busboy sees at least one file so that an undeclared file reaches the check below (err 6)
  // instead of being skipped byte by byte; the counts and sizes are enforced here.
  const limits = { ...FIELD_LIMITS, files: Math.max(maxFiles, 1) + 1, fileSize: rule ? rule.maxBytes + 1 : 1 };
  try {
    await readParts(request, rule, maxFiles, limits, params, uploads, admit);
  } catch (e) {
    throw multipartError(e);
  }
}

/**
 * A malformed multipart body (busboy: unexpected end, bad headers, …) is the client's format
 * error (err 6), a limit of @fastify/multipart err 13; file-system errors stay err 3.
 */
function multipartError(e: unknown): unknown {
  if (e instanceof ApiError) return e;
  const { statusCode, code } = (e ?? {}) as { statusCode?: unknown; code?: unknown };
  if (statusCode === 413) return new ApiError(13);
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return e;
  return new ApiError(6, 'multipart');
}

async function readParts(
  request: FastifyRequest,
  rule: UploadRule | undefined,
  maxFiles: number,
  limits: Record<string, number>,
  params: Record<string, string>,
  uploads: UploadDir,
  admit: (keys: string[]) => void,
): Promise<void> {
  for await (const part of request.parts({ limits })) {
    if (part.type === 'file') {
      if (!rule || part.fieldname !== rule.field) throw new ApiError(6, printableKey(part.fieldname));
      if (uploads.files.length >= maxFiles) throw new ApiError(13, printableKey(part.fieldname));
      const ext = path.extname(part.filename).toLowerCase();
      if (!rule.extensions.includes(ext)) throw new ApiError(6, printableKey(part.fieldname));
      const file: UploadedFile = {
        field: part.fieldname,
        filename: part.filename,
        mimetype: part.mimetype,
        path: await uploads.newPath(),
        size: 0,
      };
      uploads.files.push(file);
      await pipeline(
        part.file,
        byteLimit(part.fieldname, rule.maxBytes, (n) => (file.size = n)),
        fs.createWriteStream(file.path, { flags: 'wx', mode: 0o600 }),
      );
      if (part.file.truncated) throw new ApiError(13, printableKey(part.fieldname));
    } else {
      if (part.valueTruncated || part.fieldnameTruncated) throw new ApiError(6, printableKey(part.fieldname));
      addParam(params, part.fieldname, String(part.value));
      admit([part.fieldname]);
    }
  }
}
