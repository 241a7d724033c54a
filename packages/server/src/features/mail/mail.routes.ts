import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAIL_MESSAGES, formatMessage, mailSettingsSchema } from '@arca/contracts';
import { audit } from '../../core/audit.js';
import { getMailSettings, readMailSettings, saveMailSettings, sendMail } from './mail.service.js';

/** Mail server settings (`/admin/configuration/mail`) and a test message. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/mail', { schema: { response: { 200: mailSettingsSchema } } }, () => readMailSettings(app.db));

  app.put(
    '/ui/mail',
    { schema: { body: mailSettingsSchema, response: { 200: mailSettingsSchema } } },
    async (request) => {
      const before = await readMailSettings(app.db);
      await saveMailSettings(app.db, request.body);
      const after = await readMailSettings(app.db);
      await audit(request, { category: 'security', action: 'update', target: 'mail settings', before, after });
      return after;
    },
  );

  /** Sends a test message with the settings in the form (saved or not), to check them before saving. */
  app.post(
    '/ui/mail/test',
    {
      schema: {
        body: z.object({ to: z.string().email('Enter a valid e-mail address.'), settings: mailSettingsSchema }),
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const stored = await getMailSettings(app.db);
      const { passwordSet: _ignored, ...form } = request.body.settings;
      const settings = { ...form, enabled: true, password: form.password || stored.password };
      await sendMail(
        app.db,
        {
          to: request.body.to,
          subject: 'Test message',
          text: 'This message confirms that Arca can send mail with these settings.\n',
        },
        settings,
      );
      return { message: formatMessage(MAIL_MESSAGES.testSent, { to: request.body.to }) };
    },
  );
};
