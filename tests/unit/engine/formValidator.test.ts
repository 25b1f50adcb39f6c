// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formValidator } from '../../../src/engine/react/formErrors';
import { candidateDocuments } from '../../../core/resources/compliance/resource';
import { candidates } from '../../../core/resources/candidates/resource';

// The generated forms check only what they offer an input for: a required field that only actions change (a new
// document's check status) is not in a create form's values, and an error on it would block the save invisibly.
describe('formValidator', () => {
  const FILE = '00000000-0000-4000-8000-000000000001';

  it('lets a new document through without its action-only check status', () => {
    const validate = formValidator(candidateDocuments, []);
    expect(validate({ candidate_id: 7, document_category_id: 2, number: 'A1', file: FILE })).toEqual({});
  });

  it('still refuses what the form offers: a missing file or category', () => {
    const errors = formValidator(candidateDocuments, [])({ candidate_id: 7, number: 'A1' });
    expect(Object.keys(errors).sort()).toEqual(['document_category_id', 'file']);
    expect(errors.file.message).toBe('ra.validation.required');
  });

  it("keeps the declaration's cross-field rules", () => {
    const errors = formValidator(
      candidates,
      [],
    )({ first_name: 'A', last_name: 'B', email: 'a@b.test', status: 'pending', activated: true });
    expect(errors).toEqual({ activated: { message: 'engine.validation.activateUnapproved', args: {} } });
  });
});
