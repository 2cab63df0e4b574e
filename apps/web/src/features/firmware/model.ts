/**
 * What the firmware pages decide on the client (the server checks every one again): which
 * library a page shows (`origin`), its size limit, the accepted extensions, and the short form
 * of a digest.
 */
import { FIRMWARE_TYPES, UPLOAD_RULES } from '@sunwatch/protocol';

/** 0 the firmware manager (8 MB), 1 upgrade management (1 MB). */
export type FirmwareOrigin = 0 | 1;

export function maxBytesOf(origin: FirmwareOrigin): number {
  return origin === 1 ? UPLOAD_RULES.upgradeFirmware.maxBytes : UPLOAD_RULES.firmware.maxBytes;
}

export const FIRMWARE_EXTENSIONS: readonly string[] = UPLOAD_RULES.firmware.extensions;

/** The rule key (`rules` namespace) a chosen file breaks, or undefined when it may go up. */
export function fileProblem(
  file: { name: string; size: number },
  origin: FirmwareOrigin,
): { key: string; max?: number } | undefined {
  const name = file.name.toLowerCase();
  if (!FIRMWARE_EXTENSIONS.some((ext) => name.endsWith(ext))) return { key: 'rules.firmware.type' };
  const max = maxBytesOf(origin);
  if (file.size > max)
    return {
      key: origin === 1 ? 'rules.firmware.sizeUpgrade' : 'rules.firmware.sizeManager',
      max: max / (1024 * 1024),
    };
  return undefined;
}

export function typeKey(id: number): string {
  return FIRMWARE_TYPES.find((x) => x.id === id)?.key ?? 'general';
}

/** 12 leading and 6 trailing hex digits. */
export function shortHash(h: string): string {
  return h.length > 20 ? `${h.slice(0, 12)}…${h.slice(-6)}` : h;
}

export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}
