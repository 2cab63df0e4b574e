import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { numberText, readSheet, SheetFormatError, sheetKindOf } from '../../src/shared/sheets/sheet-reader.js';
import { buildXls, buildXlsx, type TestCell } from './sheets.js';

const ROWS: TestCell[][] = [
  ['W0012345678901', 'Roof east'],
  [],
  ['W0012345678902', 12345],
  [{ formula: '"W001"&"2345678903"', result: 'W0012345678903' }, { formula: '1+1', result: 2 }],
  [98765432109876, 'numeric PN'],
  ['  W0012345678904  ', 'Ünïcødé & <tags>'],
];

const EXPECTED = [
  { row: 1, cells: ['W0012345678901', 'Roof east'] },
  { row: 3, cells: ['W0012345678902', '12345'] },
  { row: 4, cells: ['W0012345678903', '2'] },
  { row: 5, cells: ['98765432109876', 'numeric PN'] },
  { row: 6, cells: ['W0012345678904', 'Ünïcødé & <tags>'] },
];

describe('sheet reader', () => {
  it('reads the first sheet of an xlsx: shared strings, numbers, formula results; blank rows skipped', () => {
    expect(readSheet(buildXlsx(ROWS), 'xlsx')).toEqual(EXPECTED);
  });

  it('reads inline strings of an xlsx', () => {
    expect(readSheet(buildXlsx(ROWS, { sharedInline: true }), 'xlsx')).toEqual(EXPECTED);
  });

  it('reads a BIFF8 xls: LABELSST, RK, NUMBER, FORMULA with STRING results', () => {
    expect(readSheet(buildXls(ROWS), 'xls')).toEqual(EXPECTED);
    expect(readSheet(buildXls([[1.5, 'x']]), 'xls')).toEqual([{ row: 1, cells: ['1.5', 'x'] }]);
  });

  it('reads LABEL cells (8-bit and UTF-16) of an xls', () => {
    expect(readSheet(buildXls(ROWS, { label: true }), 'xls')).toEqual(EXPECTED);
    expect(readSheet(buildXls([['数据采集器', 'A']], { label: true }), 'xls')).toEqual([
      { row: 1, cells: ['数据采集器', 'A'] },
    ]);
  });

  it('keeps an empty column A as "" so the row can be reported', () => {
    expect(readSheet(buildXlsx([[null, 'alias only']]), 'xlsx')).toEqual([{ row: 1, cells: ['', 'alias only'] }]);
  });

  it('refuses broken files with a SheetFormatError', () => {
    expect(() => readSheet(strToU8('PN,alias\nW0012345678901,x\n'), 'xlsx')).toThrow(SheetFormatError);
    expect(() => readSheet(strToU8('not a compound file at all, just text'), 'xls')).toThrow(SheetFormatError);
    expect(() => readSheet(zipSync({ 'readme.txt': strToU8('hello') }), 'xlsx')).toThrow(SheetFormatError);
    // An xlsx handed in as .xls (and the other way round) is not readable as that kind.
    expect(() => readSheet(buildXlsx(ROWS), 'xls')).toThrow(SheetFormatError);
    expect(() => readSheet(buildXls(ROWS), 'xlsx')).toThrow(SheetFormatError);
  });

  it('refuses an xlsx that expands beyond the limit without inflating it', () => {
    const bomb = zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(70 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(() => readSheet(bomb, 'xlsx')).toThrow(/expands beyond/);
  });

  it('knows the kinds by extension and prints numbers as the sheet shows them', () => {
    expect(sheetKindOf('Stock.XLSX')).toBe('xlsx');
    expect(sheetKindOf('stock.xls')).toBe('xls');
    expect(sheetKindOf('stock.csv')).toBeUndefined();
    expect(numberText(12345)).toBe('12345');
    expect(numberText(0.1 + 0.2)).toBe('0.3');
  });
});
