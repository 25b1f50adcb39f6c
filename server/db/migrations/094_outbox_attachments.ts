// Issue 32: e-mail attachments by reference. A queued message names the kept documents it carries (issued_documents
// ids), read when it is sent: the outbox and the job queue hold no copies of a PDF's bytes, and what is attached is
// the document as it was issued, whenever the mail goes. The embedded mail server notes what each message carried
// (name, type, size, SHA-256) for the mailbox screen and the tests.
export default /* sql */ `
alter table email_outbox add column attachments integer[] not null default '{}';
alter table mailbox add column attachments jsonb not null default '[]';
`;
