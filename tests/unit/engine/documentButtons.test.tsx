import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { DocumentButtons } from '../../../src/engine/react/download';
import { timesheets } from '../../../core/resources/timesheets/resource';
import { server } from '../msw/server';

// Issue 31.5: a record's declared documents are its PDF buttons, each asking the one generic route for its template.
const saved: string[] = [];
beforeEach(() => {
  saved.length = 0;
  localStorage.setItem('token', 'tok-docs');
  URL.createObjectURL = () => 'blob:test/1';
  URL.revokeObjectURL = () => undefined;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push(this.download);
  };
});

function answer() {
  const asked: string[] = [];
  server.use(
    http.get('*/api/:resource/:id/pdf', ({ request, params }) => {
      const template = new URL(request.url).searchParams.get('template');
      asked.push(`${String(params.resource)}/${String(params.id)} ${template ?? '(first)'}`);
      return new HttpResponse('%PDF-1.7', {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="${template ?? 'first'}-${String(params.id)}.pdf"`,
        },
      });
    }),
  );
  return asked;
}

const inAdmin = (ui: React.ReactElement) => render(<AdminContext i18nProvider={i18nProvider}>{ui}</AdminContext>);

describe('<DocumentButtons>', () => {
  it("one document is the record's PDF, asked for without a template (the first declared)", async () => {
    const asked = answer();
    inAdmin(<DocumentButtons decl={timesheets} id={42} />);
    await userEvent.click(screen.getByRole('button', { name: 'PDF' }));
    await waitFor(() => expect(saved).toEqual(['first-42.pdf']));
    expect(asked).toEqual(['timesheets/42 (first)']);
  });

  it('several designs are named by their labels; each asks for its own template', async () => {
    const asked = answer();
    const invoices = {
      name: 'invoices',
      documents: [
        { template: 'template1', label: 'Invoice, layout 1' },
        { template: 'template2', label: 'Invoice, layout 2' },
      ],
    };
    inAdmin(<DocumentButtons decl={invoices} id={7} />);
    expect(screen.queryByRole('button', { name: 'PDF' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Invoice, layout 2' }));
    await waitFor(() => expect(saved).toEqual(['template2-7.pdf']));
    await userEvent.click(screen.getByRole('button', { name: 'Invoice, layout 1' }));
    await waitFor(() => expect(saved).toEqual(['template2-7.pdf', 'first-7.pdf']));
    expect(asked).toEqual(['invoices/7 template2', 'invoices/7 (first)']);
  });

  it('draws nothing for a resource without documents', () => {
    const { container } = inAdmin(<DocumentButtons decl={{ name: 'clients' }} id={1} />);
    expect(container.querySelectorAll('button')).toHaveLength(0);
  });
});
