import { useEffect, useState } from 'react';
import { Alert, Box, Stack, Tab, Tabs, Typography } from '@mui/material';
import { Link, useParams } from 'react-router';
import { Button, Loading, Title, useGetOne, useTranslate } from 'react-admin';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { requestFile } from '../../providers/request';
import { saveFile } from '../../engine/react/download';

/*
 * The spec's two printable layouts of an invoice (template1, template2). The browser remembers the one chosen under
 * `selectedTemplate` (TemplateOne or TemplateTwo, TemplateOne by default, as the spec writes them); the invoice's PDF
 * button downloads that one. What is shown is the server's own PDF: the copy kept at issue once issued, the draft
 * drawn live before (GET /api/invoices/{id}/pdf?template=…), so the screen and the client's copy never differ.
 */

export type TemplateId = 'template1' | 'template2';
export const TEMPLATE_IDS: TemplateId[] = ['template1', 'template2'];
/** The browser's key and its values, as the spec names them. */
export const SELECTED_TEMPLATE_KEY = 'selectedTemplate';
const STORED: Record<TemplateId, string> = { template1: 'TemplateOne', template2: 'TemplateTwo' };

/** The layout the browser remembers (TemplateOne when none, or anything else, is stored). */
export function selectedTemplate(): TemplateId {
  try {
    return localStorage.getItem(SELECTED_TEMPLATE_KEY) === STORED.template2 ? 'template2' : 'template1';
  } catch {
    return 'template1';
  }
}

export function rememberTemplate(template: TemplateId) {
  try {
    localStorage.setItem(SELECTED_TEMPLATE_KEY, STORED[template]);
  } catch {
    // A browser that keeps nothing (private mode's quota) still shows the layout; it is only not remembered.
  }
}

export const templatePath = (id: string | number, template: TemplateId) =>
  `/invoice/client-InvoiceView/${id}/${template}`;
export const pdfPath = (id: string | number, template: TemplateId) => `/invoices/${id}/pdf?template=${template}`;

/** Saves the invoice's PDF in the remembered layout. */
export async function downloadInvoicePdf(id: string | number) {
  const { blob, name } = await requestFile(pdfPath(id, selectedTemplate()));
  saveFile(blob, name);
}

/** A PDF fetched with the session's token, as an address the page may embed (revoked when it changes). */
function usePdfUrl(path: string) {
  const [state, setState] = useState<{ url?: string; blob?: Blob; name?: string; error?: string }>({});
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    setState({});
    requestFile(path).then(
      ({ blob, name }) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setState({ url, blob, name });
      },
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return state;
}

/** /invoice/client-InvoiceView/{id}/template1 and /template2: one layout of the invoice, chosen and remembered. */
export function InvoiceTemplateView({ template }: { template: TemplateId }) {
  const { id } = useParams();
  const translate = useTranslate();
  const { data: invoice, error } = useGetOne('invoices', { id: id! });
  // Showing a layout chooses it: the invoice's PDF button and the next visit use it.
  useEffect(() => rememberTemplate(template), [template]);
  const pdf = usePdfUrl(pdfPath(id!, template));
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  if (!invoice) return <Loading />;
  const layout = translate(`app.invoices.${template}`);
  const issued = invoice.state !== 'draft' && invoice.state !== 'void' && invoice.issue_date;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
      <Title title={`${invoice.label} — ${layout}`} />
      <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Button component={Link} to={`/invoice/client-invoice/client-InvoiceView/${id}`} label="app.invoices.back">
          <ArrowBackIcon />
        </Button>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {invoice.label}
        </Typography>
        {pdf.blob && (
          <Button
            label={translate('app.invoices.pdf', { name: layout })}
            onClick={() => saveFile(pdf.blob!, pdf.name!)}
          >
            <PictureAsPdfIcon />
          </Button>
        )}
      </Stack>
      <Tabs value={template} aria-label={translate('app.invoices.layouts')} sx={{ mb: 1 }}>
        {TEMPLATE_IDS.map((t) => (
          <Tab key={t} value={t} label={translate(`app.invoices.${t}`)} component={Link} to={templatePath(id!, t)} />
        ))}
      </Tabs>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {issued
          ? translate('app.invoices.kept_note', { date: String(invoice.issue_date) })
          : translate('app.invoices.preview_note')}
      </Typography>
      {pdf.error && <Alert severity="error">{translate('app.invoices.pdf_failed', { message: pdf.error })}</Alert>}
      {pdf.url ? (
        <>
          <Box
            component="iframe"
            src={pdf.url}
            title={translate('app.invoices.pdf_frame', { invoice: invoice.label, layout })}
            data-template={template}
            sx={{ width: '100%', height: '75vh', border: 1, borderColor: 'divider', bgcolor: '#fff' }}
          />
          {/* A browser without a PDF viewer (a phone's) opens it instead. */}
          <Typography variant="body2" sx={{ mt: 1 }}>
            <a href={pdf.url} target="_blank" rel="noreferrer">
              {translate('app.invoices.open_pdf')}
            </a>
          </Typography>
        </>
      ) : (
        !pdf.error && <Loading />
      )}
    </Box>
  );
}
