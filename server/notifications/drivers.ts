import type { Queryable } from '../db/index.js';

/** One SMS or push message for a driver to deliver. */
export interface OutgoingMessage {
  merchantId: number;
  channel: 'sms' | 'push';
  /** A phone number (SMS) or a device owner key such as 'user:12' or 'candidate:7' (push). */
  recipient: string;
  recipientName?: string | null;
  body: string;
  event: string;
}

/**
 * How SMS and push messages leave the product. A driver writes its messages to message_outbox in the caller's
 * transaction, with the status it reached; a real gateway's driver would queue them there and send them from
 * the worker, as e-mail is sent.
 */
export interface MessageDriver {
  name: string;
  deliver(db: Queryable, messages: OutgoingMessage[]): Promise<void>;
}

/**
 * The bundled driver: no outside network is reachable, so it records each message (status 'recorded')
 * without sending it. The notification settings page says so.
 */
export const recordingDriver: MessageDriver = {
  name: 'recording',
  async deliver(db, messages) {
    if (messages.length === 0) return;
    await db.query(
      `insert into message_outbox (merchant_id, channel, recipient, recipient_name, body, event, status, driver)
       select m, c, r, n, b, e, 'recorded', $7 from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as x(m, c, r, n, b, e)`,
      [
        messages.map((x) => x.merchantId),
        messages.map((x) => x.channel),
        messages.map((x) => x.recipient),
        messages.map((x) => x.recipientName ?? null),
        messages.map((x) => x.body),
        messages.map((x) => x.event),
        this.name,
      ],
    );
  },
};

const drivers: Record<'sms' | 'push', MessageDriver> = { sms: recordingDriver, push: recordingDriver };

/** The driver of a channel. */
export const driverFor = (channel: 'sms' | 'push'): MessageDriver => drivers[channel];

/** Puts a gateway's driver in place of the recording one (a deployment with outside network). */
export function useDriver(channel: 'sms' | 'push', driver: MessageDriver) {
  drivers[channel] = driver;
}

/** Whether messages of the channel are only recorded (the settings page says so). */
export const recordsOnly = (channel: 'sms' | 'push') => drivers[channel] === recordingDriver;
