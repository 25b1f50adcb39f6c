// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { regionOfPostcode } from '../../../core/domain/sites/postcodeRegion';

describe('regionOfPostcode', () => {
  it('Scottish postcode areas are Scotland', () => {
    for (const p of ['IV2 3AB', 'iv23ab', 'EH1 1YZ', 'G2 1AA', 'AB10 1XG', 'KW15 1AA', 'ZE1 0AA', 'TD1 1AA'])
      expect(regionOfPostcode(p), p).toBe('scotland');
  });
  it('BT is Northern Ireland', () => {
    expect(regionOfPostcode('BT1 5GS')).toBe('northern_ireland');
  });
  it('English and Welsh areas, and the English districts of TD, are England & Wales', () => {
    for (const p of ['LS1 4AP', 'CF10 1EP', 'GL1 1AA', 'IP1 1AA', 'TD15 1AA', 'TD12 4AA', 'E1 6AN'])
      expect(regionOfPostcode(p), p).toBe('england_wales');
  });
  it('not a postcode: null', () => {
    for (const p of ['', null, undefined, '12345', '!!']) expect(regionOfPostcode(p as any)).toBeNull();
  });
});
