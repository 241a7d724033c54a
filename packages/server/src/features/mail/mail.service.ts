import nodemailer from 'nodemailer';
import { EMAIL_PATTERN, MAIL_MESSAGES, PASSWORD_FLOW_MESSAGES, type MailSettings } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { getSetting, putSetting } from '../../core/settings.store.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';

export const MAIL_DEFAULTS: MailSettings = {
  enabled: false,
  host: '',
  port: 25,
  useSsl: false,
  useTls: false,
  username: '',
  password: '',
  from: '',
  subjectPrefix: '[Arca]',
  externalUrl: '',
};

const SEAL_CONTEXT = 'mail-password';

/** The stored settings, password included and opened (server side only). */
export async function getMailSettings(db: Db): Promise<MailSettings> {
  const { sealedPassword, ...stored } = await getSetting(db, 'mail');
  // the password is kept sealed; one stored in clear before that is read as it is until the next save
  const password = sealedPassword ? ((await unseal(db, SEAL_CONTEXT, sealedPassword)) ?? '') : (stored.password ?? '');
  return { ...MAIL_DEFAULTS, ...stored, password };
}

registerSecretSource('mail', async (db) => [(await getMailSettings(db)).password]);

/** What the console sees: the password is never sent back. */
export async function readMailSettings(db: Db): Promise<MailSettings> {
  const settings = await getMailSettings(db);
  return { ...settings, password: '', passwordSet: settings.password !== '' };
}

export async function saveMailSettings(db: Db, input: MailSettings): Promise<void> {
  if (input.enabled && !input.host.trim()) throw badRequest(MAIL_MESSAGES.hostRequired);
  if (input.from && !EMAIL_PATTERN.test(input.from)) throw badRequest(MAIL_MESSAGES.fromInvalid);
  if (input.externalUrl) {
    try {
      const url = new URL(input.externalUrl);
      if (!['http:', 'https:'].includes(url.protocol)) throw new Error('scheme');
    } catch {
      throw badRequest(MAIL_MESSAGES.urlInvalid);
    }
  }
  const current = await getMailSettings(db);
  const { passwordSet: _ignored, ...rest } = input;
  // an empty password on save keeps the stored one
  const password = input.password === '' ? current.password : input.password;
  await putSetting(db, 'mail', {
    ...rest,
    host: rest.host.trim(),
    externalUrl: rest.externalUrl.replace(/\/+$/, ''),
    password: '',
    sealedPassword: password ? await seal(db, SEAL_CONTEXT, password) : '',
  });
}

export async function mailConfigured(db: Db): Promise<boolean> {
  const settings = await getMailSettings(db);
  return settings.enabled && settings.host !== '';
}

/**
 * The console's base address for links in messages: the mail settings' link address, else
 * `ARCA_BASE_URL`. Never the request's Host header, which the caller controls; undefined when
 * neither is set, and then no link is sent.
 */
export async function linkBaseUrl(db: Db, configured: string | undefined): Promise<string | undefined> {
  const { externalUrl } = await getMailSettings(db);
  const base = externalUrl || configured;
  return base ? `${base}/ui` : undefined;
}

/** The console's base address for a link, or a 400 that says how to set it. */
export async function requireLinkBaseUrl(db: Db, configured: string | undefined): Promise<string> {
  const base = await linkBaseUrl(db, configured);
  if (!base) throw badRequest(MAIL_MESSAGES.linkAddressRequired);
  return base;
}

export interface Message {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends one message through the configured server; a failure is a 502 with the spec's text. */
export async function sendMail(db: Db, message: Message, settings?: MailSettings): Promise<void> {
  const mail = settings ?? (await getMailSettings(db));
  if (!mail.enabled || !mail.host) throw new HttpError(400, PASSWORD_FLOW_MESSAGES.mailNotConfigured);
  const transport = nodemailer.createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.useSsl,
    requireTLS: mail.useTls,
    ignoreTLS: !mail.useTls && !mail.useSsl,
    ...(mail.username ? { auth: { user: mail.username, pass: mail.password } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({
      from: mail.from || `Arca <no-reply@${mail.host}>`,
      to: message.to,
      subject: `${mail.subjectPrefix ? `${mail.subjectPrefix} ` : ''}${message.subject}`,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
  } catch (error) {
    throw new HttpError(502, `${PASSWORD_FLOW_MESSAGES.emailNotSent}: ${(error as Error).message}`);
  } finally {
    transport.close();
  }
}
