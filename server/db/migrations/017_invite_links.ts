// One way for single-use links in e-mails: the sender mints a user invitation's token as it sends the e-mail,
// as for staff invitations, so no plaintext token waits in a row any more (the hash is set when it is minted).
export default /* sql */ `
drop index if exists user_invites_outbox;
alter table user_invites drop column send_token;
alter table user_invites alter column token_hash drop not null;
`;
