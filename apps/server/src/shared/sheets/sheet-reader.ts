import { unzipSync } from 'fflate';
import CFB from 'cfb';

/**
 * A minimal reader of the first worksheet of an .xlsx (Office Open XML) or .xls (BIFF8) file: the
 * text of each cell, by row. Only what batch uploads need (strings, numbers, formula results);
 * no styles, dates or other sheets. No spreadsheet library: fflate unzips .xlsx, cfb opens the
 * compound file of .xls, and the few XML elements and BIFF records are read here.
 */

/** A row of the sheet: its 1-based row number and its cells by 0-based column ("" when empty). */
export interface SheetRow {
  row: number;
  cells: string[];
}

/** The file is not a readable workbook of its kind (err 6 at the action). */
export class SheetFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SheetFormatError';
  }
}

export type SheetKind = 'xlsx' | 'xls';

/** Uncompressed bytes an .xlsx may expand to (zip bombs are refused, not inflated). */
const MAX_UNZIPPED = 64 * 1024 * 1024;

export function sheetKindOf(filename: string): SheetKind | undefined {
  const lower = filename.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.endsWith('.xls')) return 'xls';
  return undefined;
}

/** The non-empty rows of the first worksheet, in row order. */
export function readSheet(bytes: Uint8Array, kind: SheetKind): SheetRow[] {
  const cells = kind === 'xlsx' ? readXlsx(bytes) : readXls(bytes);
  const rows = new Map<number, string[]>();
  for (const c of cells) {
    const text = c.text.trim();
    if (text === '') continue;
    let r = rows.get(c.row);
    if (!r) rows.set(c.row, (r = []));
    while (r.length < c.col) r.push('');
    r[c.col] = text;
  }
  return [...rows.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([row, cs]) => ({ row: row + 1, cells: Array.from(cs, (v) => v ?? '') }));
}

interface Cell {
  /** 0-based. */
  row: number;
  col: number;
  text: string;
}

/** A number as the sheet shows it in General format: integers without decimals. */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(Number(n.toPrecision(15)));
}

// ------------------------------------------------------------------------------------ xlsx

function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Concatenated text of every `<t>` in an XML fragment (rich-text runs included, phonetic runs excluded). */
function textOf(fragment: string): string {
  const noPhonetic = fragment.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
  let out = '';
  for (const m of noPhonetic.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)) out += decodeXml(m[1] ?? '');
  return out;
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decodeXml(m[1]!) : undefined;
}

/** `B12` → {row: 11, col: 1}. */
function cellRef(ref: string): { row: number; col: number } | undefined {
  const m = /^([A-Z]{1,3})(\d{1,7})$/.exec(ref);
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]) - 1, col: col - 1 };
}

function readXlsx(bytes: Uint8Array): Cell[] {
  let files: Record<string, Uint8Array>;
  let total = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > MAX_UNZIPPED) throw new SheetFormatError('workbook expands beyond the limit');
        return f.name.startsWith('xl/') || f.name === '[Content_Types].xml';
      },
    });
  } catch (e) {
    if (e instanceof SheetFormatError) throw e;
    throw new SheetFormatError('not a zip archive');
  }
  const utf8 = new TextDecoder('utf-8', { fatal: false });
  const text = (name: string) => (files[name] ? utf8.decode(files[name]) : undefined);
  const sheetPath = firstSheetPath(text);
  const sheet = text(sheetPath);
  if (sheet === undefined) throw new SheetFormatError('no worksheet');
  const shared: string[] = [];
  const sst = text('xl/sharedStrings.xml');
  if (sst) for (const m of sst.matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)) shared.push(textOf(m[1] ?? ''));
  const cells: Cell[] = [];
  let rowIndex = -1;
  // Rows and cells in document order; a cell without `r` follows the previous one.
  const re = /<row\b([^>]*?)(\/?)>|<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
  let col = -1;
  for (const m of sheet.matchAll(re)) {
    if (m[0].startsWith('<row')) {
      const r = attr(m[1] ?? '', 'r');
      rowIndex = r !== undefined && /^\d+$/.test(r) ? Number(r) - 1 : rowIndex + 1;
      col = -1;
      continue;
    }
    const tag = m[3] ?? '';
    const body = m[4] ?? '';
    const ref = attr(tag, 'r');
    const pos = ref !== undefined ? cellRef(ref) : { row: Math.max(rowIndex, 0), col: col + 1 };
    if (!pos) continue;
    col = pos.col;
    const type = attr(tag, 't') ?? 'n';
    const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
    let value = '';
    switch (type) {
      case 's':
        value = v !== undefined ? (shared[Number(v)] ?? '') : '';
        break;
      case 'inlineStr': {
        const is = /<is>([\s\S]*?)<\/is>/.exec(body)?.[1];
        value = is !== undefined ? textOf(is) : '';
        break;
      }
      case 'str':
      case 'e':
        value = v !== undefined ? decodeXml(v) : '';
        break;
      case 'b':
        value = v === '1' ? 'TRUE' : v === '0' ? 'FALSE' : '';
        break;
      default: {
        const n = v !== undefined ? Number(decodeXml(v)) : NaN;
        value = v !== undefined && Number.isFinite(n) ? numberText(n) : '';
      }
    }
    cells.push({ row: pos.row, col: pos.col, text: value });
  }
  return cells;
}

/** The path of the first worksheet named by the workbook (its relationship), else sheet1.xml. */
function firstSheetPath(text: (name: string) => string | undefined): string {
  const fallback = 'xl/worksheets/sheet1.xml';
  const wb = text('xl/workbook.xml');
  const rels = text('xl/_rels/workbook.xml.rels');
  if (!wb || !rels) return fallback;
  const sheetTag = /<sheet\b[^>]*>/.exec(wb)?.[0];
  const rid = sheetTag ? (attr(sheetTag, 'r:id') ?? attr(sheetTag, 'id')) : undefined;
  if (!rid) return fallback;
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    if (attr(m[0], 'Id') !== rid) continue;
    const target = attr(m[0], 'Target');
    if (!target) return fallback;
    if (target.startsWith('/')) return target.slice(1);
    return `xl/${target}`.replace(/\/\.\//g, '/');
  }
  return fallback;
}

// ------------------------------------------------------------------------------------ xls (BIFF8)

const REC = {
  BOF: 0x0809,
  EOF: 0x000a,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
} as const;

interface BiffRecord {
  type: number;
  data: Uint8Array;
}

function records(stream: Uint8Array): BiffRecord[] {
  const out: BiffRecord[] = [];
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let off = 0;
  while (off + 4 <= stream.length) {
    const type = view.getUint16(off, true);
    const len = view.getUint16(off + 2, true);
    if (off + 4 + len > stream.length) throw new SheetFormatError('truncated BIFF record');
    out.push({ type, data: stream.subarray(off + 4, off + 4 + len) });
    off += 4 + len;
  }
  return out;
}

/** Reads bytes across a record and its CONTINUE records (strings may break at a boundary). */
class SegmentReader {
  private seg = 0;
  private off = 0;
  constructor(private readonly segments: Uint8Array[]) {}

  private current(): Uint8Array {
    while (this.seg < this.segments.length && this.off >= this.segments[this.seg]!.length) {
      this.seg += 1;
      this.off = 0;
    }
    const s = this.segments[this.seg];
    if (!s) throw new SheetFormatError('SST overrun');
    return s;
  }

  /** At the start of a CONTINUE segment (a string's characters resume with a new flags byte). */
  atSegmentStart(): boolean {
    this.current();
    return this.off === 0 && this.seg > 0;
  }

  u8(): number {
    const s = this.current();
    return s[this.off++]!;
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  i32(): number {
    return (this.u8() | (this.u8() << 8) | (this.u8() << 16) | (this.u8() << 24)) >> 0;
  }
  skip(n: number): void {
    for (let i = 0; i < n; i += 1) this.u8();
  }

  /** XLUnicodeRichExtendedString. */
  richString(): string {
    const cch = this.u16();
    let flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.i32() : 0;
    let out = '';
    for (let i = 0; i < cch; i += 1) {
      if (i > 0 && this.atSegmentStart()) flags = (flags & ~0x01) | (this.u8() & 0x01);
      out += String.fromCharCode(flags & 0x01 ? this.u16() : this.u8());
    }
    this.skip(runs * 4 + Math.max(ext, 0));
    return out;
  }
}

/** XLUnicodeString inside one record (LABEL, STRING). */
function unicodeString(d: Uint8Array, off: number): string {
  if (off + 3 > d.length) return '';
  const cch = d[off]! | (d[off + 1]! << 8);
  const wide = (d[off + 2]! & 0x01) === 1;
  let out = '';
  let p = off + 3;
  for (let i = 0; i < cch && p < d.length; i += 1) {
    out += String.fromCharCode(wide ? d[p]! | (d[p + 1]! << 8) : d[p]!);
    p += wide ? 2 : 1;
  }
  return out;
}

function rkValue(rk: number): number {
  let v: number;
  if (rk & 0x02) {
    v = rk >> 2;
  } else {
    const buf = new DataView(new ArrayBuffer(8));
    buf.setUint32(4, rk & 0xfffffffc, true);
    buf.setUint32(0, 0, true);
    v = buf.getFloat64(0, true);
  }
  return rk & 0x01 ? v / 100 : v;
}

function readXls(bytes: Uint8Array): Cell[] {
  let stream: Uint8Array;
  try {
    const container = CFB.read(bytes, { type: 'buffer' });
    const entry = CFB.find(container, 'Workbook') ?? CFB.find(container, 'Book');
    if (!entry?.content) throw new SheetFormatError('no Workbook stream');
    stream = entry.content instanceof Uint8Array ? entry.content : Uint8Array.from(entry.content as ArrayLike<number>);
  } catch (e) {
    if (e instanceof SheetFormatError) throw e;
    throw new SheetFormatError('not a compound document');
  }
  const recs = records(stream);
  if (recs[0]?.type !== REC.BOF) throw new SheetFormatError('no BOF');
  const sst: string[] = [];
  const cells: Cell[] = [];
  // Substreams: the workbook globals, then one per sheet; only the first worksheet's cells are read.
  let substream = -1;
  let worksheetSeen = false;
  let inFirstSheet = false;
  let pendingFormula: { row: number; col: number } | undefined;
  for (let i = 0; i < recs.length; i += 1) {
    const { type, data } = recs[i]!;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (type === REC.BOF) {
      substream += 1;
      const dt = data.length >= 4 ? view.getUint16(2, true) : 0;
      inFirstSheet = substream > 0 && dt === 0x0010 && !worksheetSeen;
      if (inFirstSheet) worksheetSeen = true;
      continue;
    }
    if (type === REC.EOF) {
      inFirstSheet = false;
      continue;
    }
    if (type === REC.SST && substream === 0) {
      const segments = [data.subarray(8)];
      while (recs[i + 1]?.type === REC.CONTINUE) segments.push(recs[++i]!.data);
      const unique = data.length >= 8 ? view.getUint32(4, true) : 0;
      const reader = new SegmentReader(segments);
      for (let k = 0; k < unique; k += 1) sst.push(reader.richString());
      continue;
    }
    if (!inFirstSheet) continue;
    if (type !== REC.STRING) pendingFormula = undefined;
    if (data.length < 6 && type !== REC.STRING) continue;
    const row = data.length >= 4 ? view.getUint16(0, true) : 0;
    const col = data.length >= 4 ? view.getUint16(2, true) : 0;
    switch (type) {
      case REC.LABELSST:
        if (data.length >= 10) cells.push({ row, col, text: sst[view.getUint32(6, true)] ?? '' });
        break;
      case REC.LABEL:
        cells.push({ row, col, text: unicodeString(data, 6) });
        break;
      case REC.NUMBER:
        if (data.length >= 14) cells.push({ row, col, text: numberText(view.getFloat64(6, true)) });
        break;
      case REC.RK:
        if (data.length >= 10) cells.push({ row, col, text: numberText(rkValue(view.getUint32(6, true))) });
        break;
      case REC.MULRK: {
        const last = view.getUint16(data.length - 2, true);
        for (let c = col, p = 4; c <= last && p + 6 <= data.length - 2; c += 1, p += 6) {
          cells.push({ row, col: c, text: numberText(rkValue(view.getUint32(p + 2, true))) });
        }
        break;
      }
      case REC.FORMULA: {
        if (data.length < 14) break;
        const special = view.getUint16(12, true) === 0xffff;
        if (!special) {
          cells.push({ row, col, text: numberText(view.getFloat64(6, true)) });
        } else if (data[6] === 0) {
          pendingFormula = { row, col }; // the string result follows in a STRING record
        } else if (data[6] === 1) {
          cells.push({ row, col, text: data[8] ? 'TRUE' : 'FALSE' });
        }
        break;
      }
      case REC.STRING:
        if (pendingFormula) cells.push({ ...pendingFormula, text: unicodeString(data, 0) });
        pendingFormula = undefined;
        break;
    }
  }
  if (!worksheetSeen) throw new SheetFormatError('no worksheet');
  return cells;
}
