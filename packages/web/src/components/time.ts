import dayjs from 'dayjs';
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** The general settings' date format (dayjs tokens); empty: the browser's own. */
let chosenFormat = '';

/** Set by the shell from the global state: every date the console writes follows it. */
export function setDateFormat(format: string): void {
  chosenFormat = format;
}

/** The date part of a date-and-time format: what comes before the hours. */
function datePart(format: string): string {
  const at = format.search(/[Hh]/);
  return (at < 0 ? format : format.slice(0, at)).replace(/[\s,]+$/, '');
}

export function formatDateTime(iso: string): string {
  return chosenFormat ? dayjs(iso).format(chosenFormat) : dateTime.format(new Date(iso));
}

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** The time of day only ('14:05'), for moments within the next hours. */
export function formatTime(iso: string): string {
  return time.format(new Date(iso));
}

export function formatDate(iso: string): string {
  return chosenFormat ? dayjs(iso).format(datePart(chosenFormat)) : date.format(new Date(iso));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** '3 minutes ago', 'in 2 days', 'now'. */
export function formatRelative(iso: string, now = Date.now()): string {
  const diff = Date.parse(iso) - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  }
  return relative.format(0, 'second');
}

/** Seconds as '2 d 3 h', '5 h 12 min', '42 s'. */
export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${seconds} s`;
}

/** True when an ISO time lies in the past. */
export function isPast(iso: string): boolean {
  return Date.parse(iso) <= Date.now();
}
