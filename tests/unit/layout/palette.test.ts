// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/palette';

// The colours of every screen (both panels, the staff page, the signing link's page) reach WCAG AA's 4.5:1 as text on
// white and behind white text (issue 30 point 5): the signing page's orange "Dispute the chosen lines" read at 3.11:1
// and the staff page's "Verified by the agency" chip at 3.85:1 with MUI's own warning and info colours.
const channel = (hex: string, at: number) => {
  const c = parseInt(hex.slice(at, at + 2), 16) / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = (hex: string) => 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
const againstWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

describe('the palette', () => {
  it("computes WCAG's ratio as axe does (MUI's defaults fail: the two colours the issue measured)", () => {
    expect(againstWhite('#ed6c02')).toBeCloseTo(3.11, 1);
    expect(againstWhite('#0288d1')).toBeCloseTo(3.88, 1);
  });

  it.each(Object.entries(palette))('%s reaches 4.5:1 against white', (_name, colour) => {
    expect(againstWhite(colour.main)).toBeGreaterThanOrEqual(4.5);
  });
});
