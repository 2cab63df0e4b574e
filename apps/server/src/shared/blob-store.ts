import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';

/** What `put` stored: where, how big, its SHA-256 (lower-case hex). */
export interface StoredBlob {
  key: string;
  size: number;
  sha256: string;
}

/**
 * Files kept outside the database (firmware images, issue 13). The default keeps them in a local
 * directory; an object store (S3 and the like) implements the same four calls. Keys are made by
 * the store (random, 128 bits) and are the only way to name a blob.
 */
export interface BlobStore {
  /** Streams `source` in, hashing as it goes; the blob exists only once complete. */
  put(source: Readable, opts?: { maxBytes?: number }): Promise<StoredBlob>;
  /** A stream of the blob, or undefined when there is none under `key`. */
  open(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined>;
  /** The whole blob, or undefined. */
  read(key: string): Promise<Buffer | undefined>;
  /** Removes the blob; false when it was not there. Never throws for a missing blob. */
  remove(key: string): Promise<boolean>;
}

/** The blob was larger than `maxBytes` (the caller maps it to err 13). */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
  }
}

const KEY = /^[0-9a-f]{32}$/;

/**
 * Blobs as files `<dir>/<key[0..2]>/<key>`, written to a temporary name and renamed when complete,
 * so a reader never sees half a blob and a crash leaves only a `.part` file for the sweep.
 */
export class LocalBlobStore implements BlobStore {
  constructor(readonly dir: string) {}

  private file(key: string): string | undefined {
    return KEY.test(key) ? path.join(this.dir, key.slice(0, 2), key) : undefined;
  }

  async put(source: Readable, opts: { maxBytes?: number } = {}): Promise<StoredBlob> {
    const key = randomBytes(16).toString('hex');
    const file = this.file(key)!;
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const part = `${file}.${randomBytes(4).toString('hex')}.part`;
    const hash = createHash('sha256');
    let size = 0;
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) return done(new BlobTooLargeError(max));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, fs.createWriteStream(part, { mode: 0o600 }));
      await fs.promises.rename(part, file);
    } catch (e) {
      await fs.promises.rm(part, { force: true });
      throw e;
    }
    return { key, size, sha256: hash.digest('hex') };
  }

  async open(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined> {
    const file = this.file(key);
    if (!file) return undefined;
    try {
      await fs.promises.access(file);
    } catch {
      return undefined;
    }
    return fs.createReadStream(file, range ? { start: range.start, ...(range.end !== undefined ? { end: range.end } : {}) } : {});
  }

  async read(key: string): Promise<Buffer | undefined> {
    const file = this.file(key);
    if (!file) return undefined;
    try {
      return await fs.promises.readFile(file);
    } catch {
      return undefined;
    }
  }

  async remove(key: string): Promise<boolean> {
    const file = this.file(key);
    if (!file) return false;
    try {
      await fs.promises.unlink(file);
      return true;
    } catch {
      return false;
    }
  }
}
