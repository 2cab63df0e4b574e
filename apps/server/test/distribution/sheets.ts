import CFB from 'cfb';
import { strToU8, zipSync } from 'fflate';

/**
 * Test workbooks built byte by byte (no spreadsheet library): a tiny .xlsx zipped with fflate and
 * a BIFF8 .xls stream inside a compound file written with cfb.
 */

/** A cell: text, a number, or a formula with its cached result. */
export type TestCell = string | number | { formula: string; result: string | number } | null;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const colName = (c: number) => String.fromCharCode(65 + c);

/**
 * An .xlsx whose first sheet holds `rows` (row i → sheet row i+1): strings go to the shared-string
 * table (`sharedInline: true` writes inline strings instead), numbers as numbers, formulas with a
 * cached `str` or numeric result.
 */
export function buildXlsx(rows: TestCell[][], opts: { sharedInline?: boolean } = {}): Uint8Array {
  const shared: string[] = [];
  const sharedIndex = (s: string) => {
    const i = shared.indexOf(s);
    if (i >= 0) return i;
    shared.push(s);
    return shared.length - 1;
  };
  const rowXml = rows
    .map((cells, r) => {
      const cs = cells
        .map((cell, c) => {
          const ref = `${colName(c)}${r + 1}`;
          if (cell === null) return '';
          if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
          if (typeof cell === 'string') {
            if (opts.sharedInline) return `<c r="${ref}" t="inlineStr"><is><t>${esc(cell)}</t></is></c>`;
            return `<c r="${ref}" t="s"><v>${sharedIndex(cell)}</v></c>`;
          }
          const t = typeof cell.result === 'string' ? ' t="str"' : '';
          return `<c r="${ref}"${t}><f>${esc(cell.formula)}</f><v>${esc(String(cell.result))}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cs}</row>`;
    })
    .join('');
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="PN" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}"><sheetData>${rowXml}</sheetData></worksheet>`,
    ),
  };
  if (shared.length > 0) {
    files['xl/sharedStrings.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${ns}" count="${shared.length}" uniqueCount="${shared.length}">` +
        shared.map((s) => `<si><t>${esc(s)}</t></si>`).join('') +
        '</sst>',
    );
  }
  return zipSync(files);
}

function record(type: number, body: number[]): number[] {
  return [type & 0xff, type >> 8, body.length & 0xff, body.length >> 8, ...body];
}
const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const f64 = (n: number) => {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, n, true);
  return Array.from(new Uint8Array(b.buffer));
};
/** XLUnicodeString, compressed (8-bit) when every character fits, else UTF-16LE. */
const xlString = (s: string) => {
  const wide = [...s].some((ch) => ch.charCodeAt(0) > 0xff);
  const chars = wide ? [...s].flatMap((ch) => u16(ch.charCodeAt(0))) : [...s].map((ch) => ch.charCodeAt(0));
  return [...u16(s.length), wide ? 1 : 0, ...chars];
};
const bof = (dt: number) => record(0x0809, [...u16(0x0600), ...u16(dt), ...u16(0x0dbb), ...u16(0x07cc), ...u32(0), ...u32(0x0206)]);
const EOF_REC = record(0x000a, []);

/**
 * A BIFF8 .xls: workbook globals (with an SST of the strings), then one worksheet. Strings are
 * LABELSST (or LABEL with `label: true`), integers RK, other numbers NUMBER, formulas FORMULA with
 * their cached result (a STRING record for text).
 */
export function buildXls(rows: TestCell[][], opts: { label?: boolean } = {}): Uint8Array {
  const sst: string[] = [];
  const index = (s: string) => {
    const i = sst.indexOf(s);
    if (i >= 0) return i;
    sst.push(s);
    return sst.length - 1;
  };
  const sheet: number[] = [...bof(0x0010)];
  rows.forEach((cells, r) => {
    cells.forEach((cell, c) => {
      if (cell === null) return;
      const head = [...u16(r), ...u16(c), ...u16(15)];
      if (typeof cell === 'string') {
        sheet.push(...(opts.label ? record(0x0204, [...head, ...xlString(cell)]) : record(0x00fd, [...head, ...u32(index(cell))])));
      } else if (typeof cell === 'number') {
        if (Number.isInteger(cell) && Math.abs(cell) < 2 ** 29) sheet.push(...record(0x027e, [...head, ...u32(((cell << 2) | 2) >>> 0)]));
        else sheet.push(...record(0x0203, [...head, ...f64(cell)]));
      } else if (typeof cell.result === 'string') {
        const res = [0, 0, 0, 0, 0, 0, 0xff, 0xff];
        sheet.push(...record(0x0006, [...head, ...res, ...u16(0), ...u32(0), ...u16(0)]));
        sheet.push(...record(0x0207, xlString(cell.result)));
      } else {
        sheet.push(...record(0x0006, [...head, ...f64(cell.result), ...u16(0), ...u32(0), ...u16(0)]));
      }
    });
  });
  sheet.push(...EOF_REC);
  const sstBody = [...u32(sst.length), ...u32(sst.length), ...sst.flatMap((s) => xlString(s))];
  const globals = [...bof(0x0005), ...(sst.length ? record(0x00fc, sstBody) : []), ...EOF_REC];
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, 'Workbook', Uint8Array.from([...globals, ...sheet]));
  const out = CFB.write(container, { type: 'buffer' }) as Uint8Array;
  return new Uint8Array(out);
}
