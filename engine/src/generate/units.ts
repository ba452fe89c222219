/**
 * How a generated world writes its values: money with a sign and thousands commas (`$1,250`),
 * measures with their unit after a space (`6.4 km`), counts bare; every value on its range's grid,
 * so that the same number is always written the same way and the answer audit, which compares
 * numbers, reads it back as written.
 */
import type { Range, UnitName } from './model';

const MONEY: ReadonlySet<UnitName> = new Set(['$', '€', '£']);

/** The digits after the point that a step needs: 0.5 → 1, 0.25 → 2, 5 → 0. */
export function decimalsOf(step: number): number {
  const text = String(step);
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** A value put on the grid of `step` and rounded so that binary fractions never show (0.1 + 0.2). */
export function onGrid(value: number, step: number): number {
  const decimals = decimalsOf(step);
  return Number((Math.round(value / step) * step).toFixed(decimals));
}

/** A number with thousands commas and the decimals given, as a person writes it. */
export function formatNumber(value: number, decimals: number, groupFrom = 5): string {
  const [whole = '0', fraction] = Math.abs(value).toFixed(decimals).split('.');
  const grouped = whole.length >= groupFrom ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return `${value < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** A value in its unit: `$1,250`, `6.4 km`, `4000 IU`, `12`. */
export function formatValue(value: number, unit: UnitName, decimals = 0): string {
  // Money is grouped from four digits ("$1,404", as Max writes it), measures from five ("4000 IU").
  if (MONEY.has(unit)) return `${unit}${formatNumber(value, decimals, 4)}`;
  const number = formatNumber(value, decimals);
  return unit === 'count' ? number : `${number} ${unit}`;
}

/** A value drawn on the range's grid. */
export function drawValue(range: Range, random: () => number): number {
  const slots = Math.max(0, Math.floor((range.max - range.min) / range.step + 1e-9));
  return onGrid(range.min + Math.floor(random() * (slots + 1)) * range.step, range.step);
}
