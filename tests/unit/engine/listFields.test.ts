import { listFieldsOf } from '../../../core/engine/listFields';
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
