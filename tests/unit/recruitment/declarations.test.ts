import { describe, expect, it } from 'vitest';
import { jobApplications, vacancies } from '../../../core/resources/recruitment/resource';

// The recruitment declarations' own functions (issue 35): the pay range's order, consent, the stage notes and the
// hire guard. The engine applies them on both sides; here they are read as plain functions.
describe('recruitment declarations', () => {
  it('a pay range reads low to high, either end optional', () => {
    expect(vacancies.rules!({ pay_min: 1500, pay_max: 1200 })).toHaveProperty('pay_max');
    expect(vacancies.rules!({ pay_min: 1200, pay_max: 1200 })).toEqual({});
    expect(vacancies.rules!({ pay_min: 1200, pay_max: null })).toEqual({});
    expect(vacancies.rules!({ pay_min: null, pay_max: 900 })).toEqual({});
  });

  it('an application needs the applicant’s consent', () => {
    expect(jobApplications.rules!({ consent: false })).toHaveProperty('consent');
    expect(jobApplications.rules!({})).toHaveProperty('consent');
    expect(jobApplications.rules!({ consent: true })).toEqual({});
  });

  it('every stage move keeps its note (or clears the last one); hire is refused once the staff member exists', () => {
    const action = (name: string) => jobApplications.actions!.find((a) => a.name === name)!;
    for (const name of ['screen', 'interview', 'reschedule', 'offer', 'hire', 'reject']) {
      expect(action(name).patch!({}, { note: 'Seen' })).toMatchObject({ stage_note: 'Seen' });
      expect(action(name).patch!({}, {})).toMatchObject({ stage_note: null });
    }
    // Booking and moving an interview keep its time, and with whom and where when said (blank: none).
    const at = '2027-03-01T10:00:00.000Z';
    for (const name of ['interview', 'reschedule'])
      expect(action(name).patch!({}, { interview_at: at, interview_with: 'Sam Lee', interview_where: ' ' })).toEqual({
        stage_note: null,
        interview_at: at,
        interview_with: 'Sam Lee',
        interview_where: null,
      });
    expect(action('hire').guard!({ candidate_id: 12 })).toMatch(/already been hired/);
    expect(action('hire').guard!({ candidate_id: null })).toBeNull();
  });

  it('status and stage are only the lifecycle’s: every transition names a declared action, every state a choice', () => {
    for (const decl of [vacancies, jobApplications]) {
      const states = decl.fields.find((f) => f.source === decl.lifecycle!.field)!.choices!.map((c) => c.id);
      for (const t of decl.lifecycle!.transitions) {
        expect(decl.actions!.map((a) => a.name)).toContain(t.action);
        // No `to`: the action keeps the state (rescheduling an interview).
        for (const s of [...t.from, ...(t.to === undefined ? [] : [t.to].flat())]) expect(states).toContain(s);
      }
    }
  });
});
