import { declForTab, listFieldsOf } from '../../../core/engine/listFields';
import { timesheets } from '../../../core/resources/timesheets/resource';
import { shifts } from '../../../core/resources/shifts/resource';
import { candidateDocuments } from '../../../core/resources/compliance/resource';

// What a list screen asks its rows to carry (?fields=): what it shows and what its rows' cells and actions read.
describe('listFieldsOf', () => {
  it('a shift list: its columns, its name, its state, the deleted mark and what its charge cell reads', () => {
    const fields = listFieldsOf(shifts);
    for (const f of ['client_id', 'start_at', 'status', 'candidate_name', 'charge', 'pay', 'margin'])
      expect(fields, f).toContain(f);
    // The name (summary), the deleted tab's mark and the cancelled charge's "changed" note are no columns.
    for (const f of ['summary', 'deleted_at', 'cancellation_charge_reason']) expect(fields, f).toContain(f);
    // What only the shift's own page shows stays there.
    for (const f of ['price_lines', 'notes', 'booking_checks', 'cancel_reason', 'created_by'])
      expect(fields, f).not.toContain(f);
  });

  it('a listed file brings its name for the link; a rejection its reason', () => {
    const fields = listFieldsOf(candidateDocuments);
    expect(fields).toContain('file');
    expect(fields).toContain('file_name');
    expect(fields).toContain('rejection_reason');
  });
});

// A tab's own columns (ListTab.columns): what the column chooser offers instead of showing, per tab.
describe('declForTab', () => {
  const hiddenOn = (tab: string | undefined) =>
    declForTab(timesheets, tab)
      .fields.filter((f) => f.listHidden)
      .map((f) => f.source);
  const column = (tab: string | undefined, source: string) =>
    declForTab(timesheets, tab).fields.find((f) => f.source === source)!;

  it('the Signed tab shows who signed in place of the site, the period end and the margin', () => {
    expect(column(undefined, 'signers').listHidden).toBe(true);
    expect(column('signed', 'signers').listHidden).toBe(false);
    for (const f of ['site_id', 'period_end', 'margin', 'kind', 'signed_at'])
      expect(hiddenOn('signed'), f).toContain(f);
  });

  it('the Awaiting signature tab leaves pay and margin to the chooser; the Weekly tab keeps them shown', () => {
    expect(hiddenOn('awaiting')).toEqual(expect.arrayContaining(['pay', 'margin', 'line_count', 'revision']));
    expect(hiddenOn('weekly')).not.toContain('pay');
    expect(hiddenOn('weekly')).not.toContain('margin');
  });

  it('a tab without columns of its own is the list itself', () => {
    expect(declForTab(timesheets, 'weekly')).toBe(timesheets);
    expect(declForTab(timesheets, 'nonesuch')).toBe(timesheets);
  });

  it('a hidden column is still a list column: the chooser offers it and the rows carry it', () => {
    const signed = declForTab(timesheets, 'signed');
    expect(listFieldsOf(signed)).toEqual(expect.arrayContaining(['margin', 'signers', 'site_id']));
  });
});
