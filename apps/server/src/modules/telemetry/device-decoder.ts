import { decodeDevice, getDefinition, type IngestDevice } from '@sunwatch/protocol';
import { decodeRegistersFast } from './fast-decode.js';
import { encodeSample } from './sample-codec.js';
import type { PreparedDevice } from './ingest.types.js';

/**
 * Decoding of one device entry of a frame (schema already checked): its devcode's definition, the
 * fast register path or the protocol decoder, at least one value, and the stored encoding. Pure.
 */
export type DecodedDevice =
  { ok: true; device: PreparedDevice } | { ok: false; reason: 'unknown_devcode' | 'decode'; detail: string };

export type DeviceDecode = (dev: IngestDevice) => DecodedDevice;

export function decodeDeviceEntry(dev: IngestDevice): DecodedDevice {
  const def = getDefinition(dev.devcode);
  if (!def) return { ok: false, reason: 'unknown_devcode', detail: `unknown devcode ${dev.devcode}` };
  const fast = decodeRegistersFast(def, dev);
  const decoded = fast ? { values: fast, errors: [] as string[] } : decodeDevice(def, dev);
  if (decoded.errors.length > 0) return { ok: false, reason: 'decode', detail: decoded.errors.slice(0, 3).join('; ') };
  const n = Object.keys(decoded.values).length;
  if (n === 0) return { ok: false, reason: 'decode', detail: 'no values' };
  return { ok: true, device: { dev, def, values: decoded.values, data: encodeSample(def, decoded.values), n } };
}
