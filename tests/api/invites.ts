import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db';
import { deliverMail } from './mail';

type Product = { app: FastifyInstance; db: Db };

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
export async function sendQueuedMail(t: Product): Promise<SentMail[]> {
  const sent: SentMail[] = [];
  const mailer = {
    async sendMail(m: object) {
      sent.push(m as SentMail);
      return { messageId: `<sent-${sent.length}@test>` };
    },
  };
  await deliverMail(t, mailer);
  return sent;
}

const addressOf = (to: SentMail['to']) => (typeof to === 'string' ? to : to.address);

/** The staff invitation link's token in the last e-mail sent to `email` (sending what is queued first). */
export async function invitationTokenSentTo(t: Product, email: string, path = /\/staff-app\/invite\/([\w-]+)/) {
  const mail = (await sendQueuedMail(t)).filter((m) => addressOf(m.to) === email).at(-1);
  if (!mail) throw new Error(`No e-mail was sent to ${email}`);
  const token = path.exec(mail.text)?.[1];
  if (!token) throw new Error(`The e-mail to ${email} has no invitation link: ${mail.text}`);
  return token;
}

/** An agency or client user's invitation link's token, as invitationTokenSentTo. */
export const userInvitationTokenSentTo = (t: Product, email: string) =>
  invitationTokenSentTo(t, email, /\/invite\/([\w-]+)/);
