import type { Transporter } from 'nodemailer';
import type { Db } from '../../server/db';
import { NotificationWorker } from '../../server/notifications/worker';

export interface SentMail {
  to: string | { address: string };
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends the queued mail as the product's sender does (the single-use links are made now), into a list instead
 * of an SMTP server, and answers what was sent.
 */
export async function sendQueuedMail(db: Db): Promise<SentMail[]> {
  const sent: SentMail[] = [];
  const mailer = {
    async sendMail(m: SentMail) {
      sent.push(m);
      return { messageId: `<sent-${sent.length}@test>` };
    },
  } as unknown as Transporter;
  await new NotificationWorker(db, { mailer }).sendDue();
  return sent;
}

const addressOf = (to: SentMail['to']) => (typeof to === 'string' ? to : to.address);

/** The staff invitation link's token in the last e-mail sent to `email` (sending what is queued first). */
export async function invitationTokenSentTo(db: Db, email: string, path = /\/staff-app\/invite\/([\w-]+)/) {
  const mail = (await sendQueuedMail(db)).filter((m) => addressOf(m.to) === email).at(-1);
  if (!mail) throw new Error(`No e-mail was sent to ${email}`);
  const token = path.exec(mail.text)?.[1];
  if (!token) throw new Error(`The e-mail to ${email} has no invitation link: ${mail.text}`);
  return token;
}

/** An agency or client user's invitation link's token, as invitationTokenSentTo. */
export const userInvitationTokenSentTo = (db: Db, email: string) =>
  invitationTokenSentTo(db, email, /\/invite\/([\w-]+)/);
