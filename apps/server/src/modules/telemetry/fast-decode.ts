import { scaleDecimals, type DeviceDefinition, type IngestDevice } from '@sunwatch/protocol';

/**
 * Ingestion fast path for the common frame: register blocks only, well-formed, nothing out of
 * range. Returns exactly `decodeDevice(def, entry).values` when that decode has no errors, and
 * `undefined` whenever anything is unusual (values present, overlapping blocks, a field cut by a
 * block edge, a value out of range or an unknown enum state) — the caller then runs the full
 * decoder, which reports why. Checked against decodeDevice by fast-decode.test.ts.
 */

interface FastField {
  id: string;
  address: number;
  words: 1 | 2;
  signed: boolean;
  scale: number;
  decimals: number;
  /** scale = k / p10 exactly (0.1 = 1/10, 0.5 = 5/10): value = raw·k / p10, correctly rounded like toFixed. */
  k: number;
  p10: number;
  min: number;
  max: number;
  enumKeys: Set<number> | undefined;
}

const PLANS = new WeakMap<DeviceDefinition, FastField[]>();

function planOf(def: DeviceDefinition): FastField[] {
  let p = PLANS.get(def);
  if (!p) {
    p = def.fields
      .map((f) => {
        const decimals = scaleDecimals(f.scale);
        const p10 = 10 ** decimals;
        const k = Math.round(f.scale * p10);
        return {
          id: f.id,
          address: f.register.address,
          words: f.register.words,
          signed: f.register.signed === true,
          scale: f.scale,
          decimals,
          k: k / p10 === f.scale ? k : 0,
          p10,
          min: f.min ?? -Infinity,
          max: f.max ?? Infinity,
          enumKeys: f.enum ? new Set(Object.keys(f.enum).map(Number)) : undefined,
        };
      })
      .sort((a, b) => a.address - b.address);
    PLANS.set(def, p);
  }
  return p;
}

interface Block {
  start: number;
  end: number;
  bytes: Buffer;
}

export function decodeRegistersFast(def: DeviceDefinition, entry: IngestDevice): Record<string, number> | undefined {
  if (entry.values !== undefined || !entry.registers || entry.registers.length === 0) return undefined;
  if (entry.devcode !== def.devcode) return undefined;
  const blocks: Block[] = [];
  for (const b of entry.registers) {
    if (b.hex.length % 4 !== 0) return undefined;
    const n = b.hex.length / 4;
    if (n === 0) continue;
    blocks.push({ start: b.start, end: b.start + n, bytes: Buffer.from(b.hex, 'hex') });
  }
  if (blocks.length === 0) return undefined;
  blocks.sort((x, y) => x.start - y.start);
  for (let i = 1; i < blocks.length; i++) if (blocks[i]!.start < blocks[i - 1]!.end) return undefined;
  const out: Record<string, number> = {};
  let bi = 0;
  for (const f of planOf(def)) {
    const last = f.address + f.words - 1;
    while (bi < blocks.length && blocks[bi]!.end <= f.address) bi++;
    const b = blocks[bi];
    if (!b || b.start > last) continue; // not in this frame
    if (f.address < b.start || last >= b.end) return undefined; // cut by a block edge
    const off = 2 * (f.address - b.start);
    let raw: number;
    if (f.words === 1) {
      raw = b.bytes.readUInt16BE(off);
      if (f.signed && raw >= 0x8000) raw -= 0x10000;
    } else {
      raw = b.bytes.readUInt32BE(off);
      if (f.signed && raw >= 0x80000000) raw -= 0x100000000;
    }
    let v: number;
    if (f.decimals === 0) v = raw * f.scale;
    else if (f.k !== 0) v = (raw * f.k) / f.p10;
    else v = Number((raw * f.scale).toFixed(f.decimals));
    if (v === 0) v = 0;
    if (v < f.min || v > f.max) return undefined;
    if (f.enumKeys && !f.enumKeys.has(v)) return undefined;
    out[f.id] = v;
  }
  return out;
}
