import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import {
  AdminContext,
  RecordContextProvider,
  ResourceContextProvider,
  TestMemoryRouter,
  memoryStore,
} from 'react-admin';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../../src/i18n/i18nProvider';
import { dataProvider } from '../../../src/providers/dataProvider';
import { EngineEdit, transformUploads } from '../../../src/engine/react/form';
import { EngineShow } from '../../../src/engine/react/show';
import { pathsOf } from '../../../src/engine/react/paths';
import { FileAvatar, FileImage, StoredImage, UploadFailure, uploadFile } from '../../../src/engine/react/files';
import { checkField } from '../../../core/engine/validate';
import { clients } from '../../../core/resources/clients/resource';
import { candidateDocuments } from '../../../core/resources/compliance/resource';
import { FieldFor } from '../../../src/engine/react/fields';
import { fake, resetFake, USERS } from '../msw/handlers';

vi.setConfig({ testTimeout: 30_000 });
// One module instance for 'react-router' and react-admin's 'react-router-dom' (see views.test.tsx).
vi.mock('react-router', async () => await vi.importActual('react-router-dom'));

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const GIF = new Uint8Array([...'GIF89a'].map((c) => c.charCodeAt(0)));
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

// jsdom has no blob URLs: number them, and remember which blob each one stands for.
const blobs = new Map<string, Blob>();
beforeEach(() => {
  resetFake();
  fake.sessions.set('tok-files', { user: USERS[0], expires: Date.now() + 3_600_000 });
  localStorage.setItem('token', 'tok-files');
  let n = 0;
  URL.createObjectURL = (b: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, b);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void blobs.delete(url);
});

const uploads = () => fake.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/api/files');
const logo = clients.fields.find((f) => f.source === 'logo')!;

describe('transformUploads', () => {
  it('uploads a newly chosen file and sends its id; keeps an untouched id, a cleared value and the other fields', async () => {
    const toSend = transformUploads(clients);
    const file = new File([PNG], 'Logo ñ.png', { type: 'image/png' });
    const chosen = { rawFile: file, src: 'blob:preview', title: 'Logo ñ.png' };
    expect(checkField(logo, chosen)).toBeUndefined(); // the form lets it through to the save

    const sent = await toSend({ name: 'Acme', logo: chosen });
    expect(sent.name).toBe('Acme');
    expect(sent.logo).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(checkField(logo, sent.logo)).toBeUndefined(); // and the API accepts what is sent
    const [req] = uploads();
    expect(req.url.searchParams.get('kind')).toBe('image');
    expect(req.authorization).toBe('Bearer tok-files');
    expect(fake.files.get(sent.logo)).toMatchObject({ name: 'Logo ñ.png', mime: 'image/png', bytes: PNG });

    const id = sent.logo as string;
    expect((await toSend({ name: 'Acme', logo: id })).logo).toBe(id);
    expect((await toSend({ logo: { src: id, title: '' } })).logo).toBe(id);
    expect((await toSend({ logo: null })).logo).toBeNull();
    expect(uploads()).toHaveLength(1); // only the new file was uploaded
  });

  it('rejects with the refusal and the field when the store refuses the bytes, whatever the name says', async () => {
    const toSend = transformUploads(clients);
    const disguised = new File([GIF], 'logo.png', { type: 'image/png' });
    const failure = await toSend({
      name: 'Acme',
      logo: { rawFile: disguised, src: 'blob:x', title: 'logo.png' },
    }).catch((e) => e);
    expect(failure).toBeInstanceOf(UploadFailure);
    expect(failure).toMatchObject({
      field: 'logo',
      status: 415,
      message: 'Only PNG, JPEG or WebP images can be uploaded here.',
    });
    expect(fake.files.size).toBe(0);
  });
});

const inAdmin = (ui: React.ReactElement) => render(<AdminContext i18nProvider={i18nProvider}>{ui}</AdminContext>);

describe('showing stored files', () => {
  it('FileImage fetches the file with the bearer token and shows it from a blob URL, with a placeholder meanwhile', async () => {
    const { id } = await uploadFile(new File([PNG], 'a.png', { type: 'image/png' }), 'image');
    // What was just uploaded is shown from the browser's own copy; a file first seen here is fetched.
    fake.files.set('00000000-0000-4000-8000-0000000000aa', {
      bytes: PNG,
      name: 'b.png',
      mime: 'image/png',
      kind: 'image',
    });
    inAdmin(
      <>
        <FileImage id={id} alt="uploaded" />
        <StoredImage value="00000000-0000-4000-8000-0000000000aa" alt="stored" />
      </>,
    );
    expect(screen.getAllByTestId('file-loading').length).toBeGreaterThan(0);
    const stored = await screen.findByRole('img', { name: 'stored' });
    expect(stored.getAttribute('src')).toMatch(/^blob:test\//);
    expect(new Uint8Array(await blobs.get(stored.getAttribute('src')!)!.arrayBuffer())).toEqual(PNG);
    expect((await screen.findByRole('img', { name: 'uploaded' })).getAttribute('src')).toMatch(/^blob:test\//);
    const gets = fake.requests.filter((r) => r.method === 'GET' && r.url.pathname.startsWith('/api/files/'));
    expect(gets.map((r) => [r.url.pathname, r.authorization])).toEqual([
      ['/api/files/00000000-0000-4000-8000-0000000000aa', 'Bearer tok-files'],
    ]);
  });

  it('never renders a kept SVG or a file it may not read; a shipped path stays a plain <img>', async () => {
    fake.files.set('00000000-0000-4000-8000-0000000000bb', {
      bytes: SVG,
      name: 'logo.svg',
      mime: 'image/svg+xml',
      kind: 'image',
    });
    inAdmin(
      <>
        <FileImage id="00000000-0000-4000-8000-0000000000bb" alt="svg" />
        <FileImage id="00000000-0000-4000-8000-0000000000cc" alt="missing" />
        <StoredImage value="/demo/agency-logo.svg" alt="shipped" />
        <StoredImage value="//evil.example/pixel.png" alt="elsewhere" />
        <FileAvatar value="00000000-0000-4000-8000-0000000000cc" alt="avatar">
          AL
        </FileAvatar>
      </>,
    );
    expect(screen.getByRole('img', { name: 'shipped' })).toHaveAttribute('src', '/demo/agency-logo.svg');
    await waitFor(() => expect(screen.getAllByRole('img', { name: 'This file cannot be shown' })).toHaveLength(2));
    expect(screen.queryByRole('img', { name: 'svg' })).toBeNull();
    expect(screen.queryByRole('img', { name: 'elsewhere' })).toBeNull();
    expect(await screen.findByText('AL')).toBeInTheDocument(); // the avatar's own fallback
    expect([...blobs.values()].some((b) => b.type === 'image/svg+xml')).toBe(true); // fetched, but not shown
  });
});

describe("a document's file link", () => {
  it("is named after the stored file, and saves it under that name (not a blob's random one)", async () => {
    const id = '00000000-0000-4000-8000-0000000000cc';
    fake.files.set(id, {
      bytes: new TextEncoder().encode('%PDF-1.4'),
      name: 'Passport – Zoë.pdf',
      mime: 'application/pdf',
      kind: 'document',
    });
    const clicked: { href: string; download: string; target: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, target: this.target });
    });
    try {
      const file = candidateDocuments.fields.find((f) => f.source === 'file')!;
      inAdmin(
        <RecordContextProvider value={{ id: 5, file: id, file_name: 'Passport – Zoë.pdf' }}>
          <FieldFor of={file} source="file" />
        </RecordContextProvider>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Passport – Zoë.pdf' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]).toMatchObject({ download: 'Passport – Zoë.pdf', target: '' });
      expect(clicked[0].href).toMatch(/^blob:test\//);
    } finally {
      click.mockRestore();
    }
  });
});

describe("an image field in the engine's forms", () => {
  const paths = pathsOf(clients);
  const at = (route: string, pattern: string, element: React.ReactElement) =>
    render(
      <TestMemoryRouter initialEntries={[route]}>
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ResourceContextProvider value="clients">
            <Routes>
              <Route path={pattern} element={element} />
              <Route path="*" element={<div>elsewhere</div>} />
            </Routes>
          </ResourceContextProvider>
        </AdminContext>
      </TestMemoryRouter>,
    );

  /** Saves once the form has taken the change (react-admin enables Save only for a changed form). */
  const save = async (user: ReturnType<typeof userEvent.setup>) => {
    const button = await waitFor(() => {
      const b = document.querySelector<HTMLButtonElement>('button[type="submit"][aria-label="Save"]');
      expect(b).not.toBeNull();
      expect(b).toBeEnabled();
      return b!;
    });
    await user.click(button);
  };

  it('uploads the chosen image on save, sends its id, and the show view displays it from the store', async () => {
    fake.records.set('clients', [
      {
        id: 1,
        name: 'Acme Care',
        billing_email: 'bills@acme.test',
        status: 'active',
        logo: null,
        timesheet_per: 'client',
        signing_methods: ['panel', 'link', 'phone'],
        shift_request_approval: 'agency',
      },
    ]);
    const user = userEvent.setup({ delay: null });
    const { unmount } = at(paths.edit(1), paths.patterns.edit, <EngineEdit decl={clients} paths={paths} />);
    const input = await waitFor(() => {
      const el = document.querySelector<HTMLInputElement>('.ra-input-logo input[type="file"]');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(input.accept).toBe('image/png,.png,image/jpeg,.jpg,.jpeg,image/webp,.webp');
    await user.upload(input, new File([PNG], 'acme.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'acme.png' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^blob:test\//),
    );
    await save(user);
    await waitFor(() => expect(fake.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = fake.requests.find((r) => r.method === 'PUT')!;
    const id = (put.body as any).logo;
    expect(fake.files.get(id)).toMatchObject({ name: 'acme.png', mime: 'image/png' });
    expect(uploads()).toHaveLength(1);
    unmount();

    at(paths.show(1), paths.patterns.show, <EngineShow decl={clients} paths={paths} />);
    expect(await screen.findByRole('img', { name: 'Logo' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^blob:test\//),
    );
  });

  it('reports an image that is too large next to the field, and uploads nothing', async () => {
    fake.records.set('clients', [
      {
        id: 1,
        name: 'Acme Care',
        billing_email: 'bills@acme.test',
        status: 'active',
        logo: null,
        timesheet_per: 'client',
        signing_methods: ['panel', 'link', 'phone'],
        shift_request_approval: 'agency',
      },
    ]);
    const user = userEvent.setup({ delay: null });
    at(paths.edit(1), paths.patterns.edit, <EngineEdit decl={clients} paths={paths} />);
    const input = await waitFor(() => {
      const el = document.querySelector<HTMLInputElement>('.ra-input-logo input[type="file"]');
      expect(el).not.toBeNull();
      return el!;
    });
    await user.upload(input, new File([PNG, new Uint8Array(1024 * 1024)], 'huge.png', { type: 'image/png' }));
    await save(user);
    expect(await screen.findByText('The file must be at most 1 MB')).toBeInTheDocument();
    expect(uploads()).toHaveLength(0);
    expect(fake.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it("shows the store's refusal of the bytes next to the field, and saves nothing", async () => {
    fake.records.set('clients', [
      {
        id: 1,
        name: 'Acme Care',
        billing_email: 'bills@acme.test',
        status: 'active',
        logo: null,
        timesheet_per: 'client',
        signing_methods: ['panel', 'link', 'phone'],
        shift_request_approval: 'agency',
      },
    ]);
    const user = userEvent.setup({ delay: null });
    at(paths.edit(1), paths.patterns.edit, <EngineEdit decl={clients} paths={paths} />);
    const input = await waitFor(() => {
      const el = document.querySelector<HTMLInputElement>('.ra-input-logo input[type="file"]');
      expect(el).not.toBeNull();
      return el!;
    });
    // A GIF named and typed as a PNG passes the form's own checks; the store reads the bytes and refuses it.
    await user.upload(input, new File([GIF], 'logo.png', { type: 'image/png' }));
    await save(user);
    const message = await screen.findByText('Only PNG, JPEG or WebP images can be uploaded here.');
    expect(message.closest('.ra-input-logo')).not.toBeNull();
    expect(uploads()).toHaveLength(1);
    expect(fake.files.size).toBe(0);
    expect(fake.requests.some((r) => r.method === 'PUT')).toBe(false);
    expect(screen.queryByText('elsewhere')).toBeNull(); // still on the form
  });
});
