// The public job board's pages (issue 35), written on the server as plain HTML: no script at all, so a phone shows
// the first screen as soon as the page arrives, search engines read it as it is, and the form works without
// JavaScript. Every value from the database or the applicant is escaped: a name typed as markup shows as typed.
import { formatPounds } from '../../core/engine/money.js';
import { RIGHT_TO_WORK } from '../../core/resources/recruitment/resource.js';
import { FILE_LIMIT_LABELS } from '../../core/engine/files.js';
import { splitOptions, type CustomFieldDefinition } from '../../core/engine/validate.js';

export const escapeHtml = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface BoardAgency {
  id: number;
  name: string;
  slug: string;
}

export interface BoardJob {
  id: number;
  title: string;
  location: string;
  pay_min: number | null;
  pay_max: number | null;
  hours: string | null;
  description: string | null;
  closing_date: string | null;
  role: string | null;
}

/** What the applicant sent (shown again beside the errors) and the errors by field. */
export interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

/** The honeypot: a field people never see nor reach, which only a form-filling robot fills in. */
export const HONEYPOT = 'website';

// Kept small and in the page (no second request): readable at 390 px and up, AA contrast, visible focus.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1a1a;background:#f5f6f8}
header{background:#0d47a1;color:#fff;padding:12px 16px}
header a{color:#fff}
main{max-width:720px;margin:0 auto;padding:16px}
h1{font-size:1.75rem;line-height:1.2;margin:8px 0 16px}
h2{font-size:1.25rem;margin:24px 0 8px}
a{color:#0d47a1}
a:focus,input:focus,select:focus,button:focus{outline:3px solid #ffbf47;outline-offset:2px}
.jobs{list-style:none;margin:0;padding:0}
.job{background:#fff;border:1px solid #d0d4da;border-radius:6px;padding:12px 16px;margin:0 0 12px}
.job h2{margin:0 0 4px}
.meta{margin:0;color:#444}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0 0 16px}
dt{font-weight:600}dd{margin:0}
form{background:#fff;border:1px solid #d0d4da;border-radius:6px;padding:16px}
.field{margin:0 0 20px}
label,legend{display:block;font-weight:600;margin:0 0 4px}
fieldset{border:0;margin:0 0 20px;padding:0}
.choice{display:flex;gap:8px;align-items:flex-start;margin:6px 0}
.choice label{font-weight:400;margin:0}
input[type=text],input[type=email],input[type=tel],input[type=file],select{width:100%;font:inherit;padding:8px;border:2px solid #505a5f;border-radius:4px;background:#fff}
input[type=radio],input[type=checkbox]{width:24px;height:24px;margin:0;flex:none}
.hint{color:#505a5f;margin:0 0 4px}
.error{color:#b00020;font-weight:600;margin:0 0 4px}
.invalid input[type=text],.invalid input[type=email],.invalid input[type=tel],.invalid input[type=file],.invalid select{border-color:#b00020}
.summary{border:3px solid #b00020;background:#fff;padding:12px 16px;margin:0 0 16px}
.summary h2{margin:0 0 8px}
button{font:inherit;font-weight:600;color:#fff;background:#00703c;border:0;border-radius:4px;padding:10px 20px;cursor:pointer}
.trap,.vh{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
`;

function page(o: { title: string; description: string; agency: BoardAgency | null; body: string }): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title)}</title>
<meta name="description" content="${escapeHtml(o.description)}">
<style>${STYLE}</style>
</head>
<body>
${o.agency ? `<header><a href="/careers/${escapeHtml(o.agency.slug)}">${escapeHtml(o.agency.name)} careers</a></header>` : ''}
<main>
${o.body}
</main>
</body>
</html>`;
}

/** The pay range in words: "£13.50 to £15.50 an hour", "From £12.21 an hour", "Up to …"; nothing when unknown. */
export function payWords(job: Pick<BoardJob, 'pay_min' | 'pay_max'>): string | null {
  const min = job.pay_min === null ? null : Number(job.pay_min);
  const max = job.pay_max === null ? null : Number(job.pay_max);
  if (min !== null && max !== null)
    return min === max ? `${formatPounds(min)} an hour` : `${formatPounds(min)} to ${formatPounds(max)} an hour`;
  if (min !== null) return `From ${formatPounds(min)} an hour`;
  if (max !== null) return `Up to ${formatPounds(max)} an hour`;
  return null;
}

const jobUrl = (agency: BoardAgency, job: Pick<BoardJob, 'id'>) => `/careers/${agency.slug}/jobs/${job.id}`;

/** The agency's board: its open jobs, newest first. */
export function boardPage(agency: BoardAgency, jobs: BoardJob[]): string {
  const items = jobs
    .map((j) => {
      const meta = [j.location, payWords(j), j.hours].filter(Boolean).map(escapeHtml).join(' · ');
      return `<li class="job"><h2><a href="${jobUrl(agency, j)}">${escapeHtml(j.title)}</a></h2>
<p class="meta">${meta}</p>${j.closing_date ? `<p class="meta">Closes ${escapeHtml(j.closing_date)}</p>` : ''}</li>`;
    })
    .join('\n');
  const count = jobs.length === 1 ? '1 open job' : `${jobs.length} open jobs`;
  return page({
    title: `Jobs at ${agency.name}`,
    description:
      `${count} at ${agency.name}${jobs.length ? `: ${jobs.map((j) => j.title).join(', ')}` : ''}. Apply online.`.slice(
        0,
        300,
      ),
    agency,
    body: `<h1>Jobs at ${escapeHtml(agency.name)}</h1>
${jobs.length ? `<p>${count}. Choose a job to read more and apply.</p>\n<ul class="jobs">\n${items}\n</ul>` : '<p>There are no open jobs at the moment. Please look again soon.</p>'}`,
  });
}

const fieldError = (state: FormState, name: string) =>
  state.errors[name]
    ? `<p class="error" id="${name}-error"><span class="vh">Error: </span>${escapeHtml(state.errors[name])}</p>`
    : '';
const describedBy = (state: FormState, name: string, hint?: boolean) => {
  const ids = [hint ? `${name}-hint` : '', state.errors[name] ? `${name}-error` : ''].filter(Boolean).join(' ');
  return `${ids ? ` aria-describedby="${ids}"` : ''}${state.errors[name] ? ' aria-invalid="true"' : ''}`;
};

function textField(
  state: FormState,
  name: string,
  label: string,
  o: { type?: string; autocomplete: string; required?: boolean; hint?: string; inputmode?: string },
) {
  return `<div class="field${state.errors[name] ? ' invalid' : ''}">
<label for="${name}">${escapeHtml(label)}${o.required ? '' : ' (optional)'}</label>
${o.hint ? `<p class="hint" id="${name}-hint">${escapeHtml(o.hint)}</p>` : ''}${fieldError(state, name)}
<input type="${o.type ?? 'text'}" id="${name}" name="${name}" value="${escapeHtml(state.values[name])}" autocomplete="${o.autocomplete}"${o.inputmode ? ` inputmode="${o.inputmode}"` : ''}${o.required ? ' required' : ''}${describedBy(state, name, !!o.hint)}>
</div>`;
}

/** A form field's name for one of the agency's own fields (a staff detail field asked on the form): apart from ours. */
export const askedName = (key: string) => `detail-${key}`;

/** One of the agency's own fields, by its type: text, a number, a date typed as yyyy-MM-dd, yes/no, a choice. */
function askedField(state: FormState, d: CustomFieldDefinition): string {
  const name = askedName(d.key);
  const value = state.values[name] ?? '';
  const invalid = state.errors[name] ? ' invalid' : '';
  if (d.field_type === 'boolean')
    return `<div class="field${invalid}">
${fieldError(state, name)}<div class="choice"><input type="checkbox" id="${name}" name="${name}" value="yes"${value === 'yes' ? ' checked' : ''}${describedBy(state, name)}><label for="${name}">${escapeHtml(d.label)}</label></div>
</div>`;
  if (d.field_type === 'choice') {
    const options = splitOptions(d.options)
      .map((o) => `<option value="${escapeHtml(o)}"${value === o ? ' selected' : ''}>${escapeHtml(o)}</option>`)
      .join('');
    return `<div class="field${invalid}">
<label for="${name}">${escapeHtml(d.label)}${d.required ? '' : ' (optional)'}</label>
${fieldError(state, name)}<select id="${name}" name="${name}"${d.required ? ' required' : ''}${describedBy(state, name)}><option value="">Choose…</option>${options}</select>
</div>`;
  }
  return textField(state, name, d.label, {
    autocomplete: 'off',
    required: d.required,
    ...(d.field_type === 'date' ? { hint: 'Year, month and day, for example 2026-12-01.' } : {}),
    ...(d.field_type === 'number' ? { inputmode: 'decimal' } : {}),
  });
}

/** The order the fields are on the page (the agency's own after the phone): the error summary lists them in it. */
const fieldOrder = (asked: readonly CustomFieldDefinition[]) => [
  'first_name',
  'last_name',
  'email',
  'phone',
  ...asked.map((d) => askedName(d.key)),
  'right_to_work',
  'cv',
  'consent',
];
/** Where each field's error summary link goes (a radio group: its first choice). */
const anchorOf = (name: string) => (name === 'right_to_work' ? `right_to_work-${RIGHT_TO_WORK[0].id}` : name);

/** A job's own page: what it is, and the application form (with the errors of a refused one, beside each field). */
export function jobPage(
  agency: BoardAgency,
  job: BoardJob,
  asked: readonly CustomFieldDefinition[],
  state: FormState = { values: {}, errors: {} },
): string {
  const hasErrors = Object.keys(state.errors).length > 0;
  const inOrder = fieldOrder(asked);
  const details = [
    ['Location', job.location],
    ['Pay', payWords(job)],
    ['Hours', job.hours],
    ['Job role', job.role],
    ['Closing date', job.closing_date],
  ]
    .filter(([, v]) => v)
    .map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`)
    .join('');
  const description = (job.description ?? '')
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const ordered = [
    ...inOrder.filter((f) => state.errors[f]),
    ...Object.keys(state.errors).filter((f) => !inOrder.includes(f)),
  ];
  const summary = hasErrors
    ? `<div class="summary" role="alert" aria-labelledby="summary-title"><h2 id="summary-title">There is a problem with your application</h2>
<ul>${ordered
        .map((f) =>
          inOrder.includes(f)
            ? `<li><a href="#${anchorOf(f)}">${escapeHtml(state.errors[f])}</a></li>`
            : `<li>${escapeHtml(state.errors[f])}</li>`,
        )
        .join('')}</ul></div>`
    : '';
  const radios = RIGHT_TO_WORK.map(
    (c) =>
      `<div class="choice"><input type="radio" id="right_to_work-${c.id}" name="right_to_work" value="${c.id}"${
        state.values.right_to_work === c.id ? ' checked' : ''
      }${state.errors.right_to_work ? ' aria-describedby="right_to_work-error"' : ''}><label for="right_to_work-${c.id}">${escapeHtml(c.name)}</label></div>`,
  ).join('\n');
  const form = `<form method="post" action="${jobUrl(agency, job)}/apply" enctype="multipart/form-data" novalidate>
${summary}
${textField(state, 'first_name', 'First name', { autocomplete: 'given-name', required: true })}
${textField(state, 'last_name', 'Last name', { autocomplete: 'family-name', required: true })}
${textField(state, 'email', 'E-mail address', { type: 'email', autocomplete: 'email', required: true, hint: 'We send a confirmation of your application here.' })}
${textField(state, 'phone', 'Phone number', { type: 'tel', autocomplete: 'tel' })}
${asked.map((d) => askedField(state, d)).join('\n')}
<fieldset class="${state.errors.right_to_work ? 'invalid' : ''}">
<legend>Do you have the right to work in the UK?</legend>
${fieldError(state, 'right_to_work')}${radios}
</fieldset>
<div class="field${state.errors.cv ? ' invalid' : ''}">
<label for="cv">Your CV (optional)</label>
<p class="hint" id="cv-hint">A PDF, PNG, JPEG or WebP file of up to ${FILE_LIMIT_LABELS.document}.${
    state.values.cv_sent ? ' Please choose your file again.' : ''
  }</p>
${fieldError(state, 'cv')}<input type="file" id="cv" name="cv" accept=".pdf,.png,.jpg,.jpeg,.webp,application/pdf,image/png,image/jpeg,image/webp"${describedBy(state, 'cv', true)}>
</div>
<div class="trap" aria-hidden="true"><label for="${HONEYPOT}">Leave this empty</label><input type="text" id="${HONEYPOT}" name="${HONEYPOT}" tabindex="-1" autocomplete="off"></div>
<div class="field${state.errors.consent ? ' invalid' : ''}">
${fieldError(state, 'consent')}<div class="choice"><input type="checkbox" id="consent" name="consent" value="yes"${
    state.values.consent === 'yes' ? ' checked' : ''
  }${describedBy(state, 'consent')} required><label for="consent">I agree to ${escapeHtml(agency.name)} keeping and using the details I send for this application and for finding me work.</label></div>
</div>
<button type="submit">Send application</button>
</form>`;
  return page({
    title: `${hasErrors ? 'Error: ' : ''}${job.title} – ${agency.name}`,
    description: `${job.title} in ${job.location}${payWords(job) ? `, ${payWords(job)}` : ''}. Apply to ${agency.name} online.`,
    agency,
    body: `<p><a href="/careers/${escapeHtml(agency.slug)}">All jobs at ${escapeHtml(agency.name)}</a></p>
<h1>${escapeHtml(job.title)}</h1>
<dl>${details}</dl>
${description}
<h2 id="apply">Apply for this job</h2>
${form}`,
  });
}

/** After an application: what happens next. */
export function appliedPage(agency: BoardAgency, job: BoardJob): string {
  return page({
    title: `Application sent – ${job.title} – ${agency.name}`,
    description: `Your application for ${job.title} at ${agency.name} was sent.`,
    agency,
    body: `<h1>Application sent</h1>
<p>Thank you for applying for <strong>${escapeHtml(job.title)}</strong>. We have sent a confirmation to your e-mail address, and ${escapeHtml(agency.name)} will be in touch.</p>
<p><a href="/careers/${escapeHtml(agency.slug)}">See the other jobs at ${escapeHtml(agency.name)}</a></p>`,
  });
}

/** A page of the board that answers no job (404), or a refusal in words (429, 413). */
export function messagePage(agency: BoardAgency | null, title: string, text: string): string {
  return page({ title, description: text, agency, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>` });
}
