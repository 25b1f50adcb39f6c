import { formatPounds, penceToPounds } from '../../../core/engine/money';

describe('formatPounds', () => {
  it.each([
    [0, '£0.00'],
    [5, '£0.05'],
    [1234, '£12.34'],
    [9800, '£98.00'],
    [123456, '£1,234.56'],
    [123456789, '£1,234,567.89'],
    [-50, '-£0.50'],
    [-150, '-£1.50'],
    [-123456, '-£1,234.56'],
    [1234.5, '£12.35'],
    [-1234.5, '-£12.35'],
    [1234.4999, '£12.34'],
    [0.4, '£0.00'],
    [-0.4, '£0.00'],
    [-0, '£0.00'],
  ])('%s pence → %s', (pence, text) => {
    expect(formatPounds(pence)).toBe(text);
  });
});

describe('penceToPounds', () => {
  it.each([
    [1250, 12.5],
    [0, 0],
    [-150, -1.5],
    [1234.6, 12.35],
  ])('%s pence → %s', (pence, pounds) => {
    expect(penceToPounds(pence)).toBe(pounds);
  });
});
