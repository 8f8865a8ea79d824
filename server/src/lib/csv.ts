/**
 * CSV (RFC 4180): every cell quoted when it needs to be, CRLF line ends. A cell a spreadsheet would
 * run as a formula (starting with = + - @, a tab or a carriage return) gets a leading `'` (OWASP's
 * advice against CSV injection): exports carry what registrants typed.
 */
export type CsvCell = string | number | boolean | null | undefined;

function cell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csv = (header: string[], rows: CsvCell[][]): string =>
  [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
