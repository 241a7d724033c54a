import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  PASSWORD_FLOW_MESSAGES,
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  invitationTokenSchema,
  keyQuerySchema,
  loginAnswerSchema,
  mfaEnrollmentSchema,
  otpBodySchema,
  resetPasswordBodySchema,
  setPasswordBodySchema,
} from '@arca/contracts';
import { badRequest, forbidden, unauthorized } from '../../core/errors.js';
import type { UserRow } from '../../db/schema.js';
import { audit, auditActor, recordAudit } from '../../core/audit.js';
import { getSecuritySettings } from '../security/index.js';
import { mailConfigured, requireLinkBaseUrl, sendMail } from '../mail/index.js';
import { getUser } from '../users/index.js';
import { afterPassword, openSession } from './auth.service.js';
import {
  changePassword,
  confirmEnrollment,
  findResettableUser,
  redeemToken,
  resetMfa,
  startEnrollment,
  verifyCurrentOtp,
  verifyLoginOtp,
} from './flows.service.js';
import { consumeToken, issueToken, peekToken, recentlyIssued, sendInvitation } from '../identity/index.js';
import { MFA_COOKIE, finishSignIn } from './sign-in.js';

const okSchema = z.object({ message: z.string() });

/** At most one reset mail per user in this time, however many ask. */
const RESET_MAIL_INTERVAL_MS = 5 * 60_000;

/**
 * Two-factor sign-in, password change/reset and invitations (spec part 2 §7.1). Each flow that
 * ends with a password ends signed in, as the console expects (reset without remember-me).
 */
export const signInFlowRoutes: FastifyPluginAsyncZod = async (app) => {
  const access = 'public' as const;

  /* ---------- Two factors ---------- */

  const enrollGet = async (request: Parameters<typeof audit>[0]) => {
    const pending = await peekToken(app.db, request.cookies[MFA_COOKIE], 'mfa-login');
    const user: UserRow | undefined =
      pending?.user ?? (request.principal.kind === 'user' ? request.principal.user : undefined);
    if (!user) {
      // a cookie that no longer leads anywhere: the sign-in expired; none at all: there never was one
      throw forbidden(
        request.cookies[MFA_COOKIE] ? PASSWORD_FLOW_MESSAGES.otpExpired : PASSWORD_FLOW_MESSAGES.noPendingSignIn,
      );
    }
    return startEnrollment(app.db, user);
  };

  for (const base of ['/auth/mfa', '/access/auth/mfa']) {
    app.get(`${base}/enroll/`, { config: { access }, schema: { response: { 200: mfaEnrollmentSchema } } }, (request) =>
      enrollGet(request),
    );

    app.post(
      `${base}/enroll/`,
      {
        config: { access },
        schema: {
          body: otpBodySchema,
          response: { 200: z.union([loginAnswerSchema, z.object({ enrolled: z.literal(true) })]) },
        },
      },
      async (request, reply) => {
        const pending = await peekToken(app.db, request.cookies[MFA_COOKIE], 'mfa-login');
        const signedIn = request.principal.kind === 'user' ? request.principal.user : undefined;
        const userId = pending?.user.id ?? signedIn?.id;
        if (!userId) throw forbidden(PASSWORD_FLOW_MESSAGES.otpExpired);
        const user = await confirmEnrollment(app.db, userId, request.body.otp);
        await recordAudit(app.db, auditActor(request, user.name), {
          category: 'auth',
          action: 'two-factor enrolled',
          target: user.name,
        });
        if (!pending) return { enrolled: true as const };
        if (!(await consumeToken(app.db, pending.hash))) throw forbidden(PASSWORD_FLOW_MESSAGES.otpExpired);
        const session = await openSession(app.db, app.config, user, pending.data.rememberMe === true);
        return finishSignIn(app, request, reply, { kind: 'session', ...session }, 'sign-in (two-factor enrolled)');
      },
    );

    app.post(
      `${base}/verify/`,
      { config: { access }, schema: { body: otpBodySchema, response: { 200: loginAnswerSchema } } },
      async (request, reply) => {
        const pending = await peekToken(app.db, request.cookies[MFA_COOKIE], 'mfa-login');
        if (!pending) throw forbidden(PASSWORD_FLOW_MESSAGES.otpExpired);
        try {
          await verifyLoginOtp(app.db, app.config, pending, request.body.otp);
        } catch (error) {
          await recordAudit(app.db, auditActor(request, pending.user.name), {
            category: 'auth',
            action: 'sign-in (two-factor)',
            target: pending.user.name,
            outcome: 'failure',
            message: (error as Error).message,
          });
          throw error;
        }
        if (!(await consumeToken(app.db, pending.hash))) throw forbidden(PASSWORD_FLOW_MESSAGES.otpExpired);
        const session = await openSession(app.db, app.config, pending.user, pending.data.rememberMe === true);
        return finishSignIn(app, request, reply, { kind: 'session', ...session }, 'sign-in (two-factor)');
      },
    );
  }

  /** A user turns their own second factor off, unless the deployment requires it: with a fresh code, in a session. */
  app.delete(
    '/ui/auth/mfa',
    { config: { access: 'user' }, schema: { body: otpBodySchema } },
    async (request, reply) => {
      const { principal } = request;
      if (principal.kind !== 'user') throw unauthorized(AUTH_MESSAGES.loginRequired);
      if (principal.via !== 'session') throw forbidden(PASSWORD_FLOW_MESSAGES.mfaNeedsSession);
      if ((await getSecuritySettings(app.db, app.config)).requireMfa)
        throw badRequest(PASSWORD_FLOW_MESSAGES.mfaRequired);
      await verifyCurrentOtp(app.db, app.config, principal.user, request.body.otp);
      await resetMfa(app.db, principal.user.id);
      await audit(request, { category: 'auth', action: 'two-factor removed', target: principal.user.name });
      return reply.status(204).send();
    },
  );

  /** An administrator resets a user's second factor (lost phone); the user enrols again. */
  app.delete(
    '/ui/users/:name/mfa',
    { config: { access: 'admin' }, schema: { params: z.object({ name: z.string().max(64) }) } },
    async (request, reply) => {
      const user = await getUser(app.db, request.params.name);
      await resetMfa(app.db, user.id);
      await audit(request, { category: 'user', action: 'two-factor reset', target: user.name });
      return reply.status(204).send();
    },
  );

  /* ---------- Passwords ---------- */

  app.post(
    '/ui/auth/changePassword',
    { config: { access }, schema: { body: changePasswordBodySchema, response: { 200: loginAnswerSchema } } },
    async (request, reply) => {
      try {
        const user = await changePassword(app.db, app.config, request.body);
        await recordAudit(app.db, auditActor(request, user.name), {
          category: 'user',
          action: 'password changed',
          target: user.name,
        });
        return finishSignIn(
          app,
          request,
          reply,
          await afterPassword(app.db, app.config, user, false),
          'sign-in (password changed)',
        );
      } catch (error) {
        await recordAudit(app.db, auditActor(request, request.body.userName), {
          category: 'user',
          action: 'password changed',
          target: request.body.userName,
          outcome: 'failure',
          message: (error as Error).message,
        });
        throw error;
      }
    },
  );

  app.post(
    '/ui/auth/forgotpassword',
    {
      // a mailbox is not to be flooded: a few requests per client address, and one mail per user (below)
      config: { access, rateLimit: { max: 5, timeWindow: '15 minutes' } },
      schema: { body: forgotPasswordBodySchema, response: { 200: okSchema } },
    },
    async (request) => {
      // checked before the user, so that the answer never depends on whether the user exists
      if (!(await mailConfigured(app.db))) throw badRequest(PASSWORD_FLOW_MESSAGES.mailNotConfigured);
      const base = await requireLinkBaseUrl(app.db, app.config.baseUrl);
      const who = auditActor(request, request.body.user);
      // looked up and mailed after the answer: the same answer in the same time whether the user exists or not
      const sending = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => mailResetLink(request.body.user, base, who))
        .catch((error: unknown) => request.log.warn({ err: error }, 'sending a password reset link failed'))
        .finally(() => mailing.delete(sending));
      mailing.add(sending);
      return { message: PASSWORD_FLOW_MESSAGES.resetSent };
    },
  );

  // reset mails still being sent; the server waits for them when it closes
  const mailing = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...mailing]);
  });

  async function mailResetLink(name: string, base: string, who: { actor: string; sourceIp: string }): Promise<void> {
    const user = await findResettableUser(app.db, name);
    if (!user || (await recentlyIssued(app.db, user.id, 'reset', RESET_MAIL_INTERVAL_MS))) return;
    const token = await issueToken(app.db, user.id, 'reset');
    await sendMail(app.db, {
      to: user.email!,
      subject: 'Reset your password',
      text: `Someone (hopefully you) asked to reset the password of ${user.name}.\n\nOpen this link within an hour to choose a new password:\n${base}/login/reset-password?key=${token}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
    });
    await recordAudit(
      app.db,
      { ...who, actor: user.name },
      {
        category: 'user',
        action: 'password reset requested',
        target: user.name,
      },
    );
  }

  app.post(
    '/ui/auth/validatetoken',
    { config: { access }, schema: { querystring: keyQuerySchema, response: { 200: z.object({ user: z.string() }) } } },
    async (request) => {
      const live = await peekToken(app.db, request.query.key, 'reset');
      if (!live) throw badRequest(PASSWORD_FLOW_MESSAGES.badResetLink);
      return { user: live.user.name };
    },
  );

  app.post(
    '/ui/auth/resetpassword',
    {
      config: { access },
      schema: { querystring: keyQuerySchema, body: resetPasswordBodySchema, response: { 200: okSchema } },
    },
    async (request) => {
      const user = await redeemToken(app.db, request.query.key, 'reset', request.body.password, request.body.user);
      await recordAudit(app.db, auditActor(request, user.name), {
        category: 'user',
        action: 'password reset',
        target: user.name,
      });
      return { message: 'The password was reset.' };
    },
  );

  /* ---------- Invitations ---------- */

  app.post(
    '/access/token/verify',
    {
      config: { access },
      schema: { body: invitationTokenSchema, response: { 200: z.object({ userName: z.string(), email: z.string() }) } },
    },
    async (request) => {
      const live = await peekToken(app.db, request.body.token, 'invite');
      if (!live) throw badRequest(PASSWORD_FLOW_MESSAGES.badInvitation);
      return { userName: live.user.name, email: live.user.email ?? '' };
    },
  );

  app.post(
    '/access/entities/users/invited/setPassword',
    { config: { access }, schema: { body: setPasswordBodySchema, response: { 200: okSchema } } },
    async (request) => {
      const user = await redeemToken(app.db, request.body.token, 'invite', request.body.password);
      await recordAudit(app.db, auditActor(request, user.name), {
        category: 'user',
        action: 'invitation accepted',
        target: user.name,
      });
      return { message: 'The password was set.' };
    },
  );

  /** Sends (or sends again) an invitation to a user to choose a password. */
  app.post(
    '/ui/users/:name/invite',
    {
      config: { access: 'admin' },
      schema: { params: z.object({ name: z.string().max(64) }), response: { 200: okSchema } },
    },
    async (request) => {
      const user = await getUser(app.db, request.params.name);
      await sendInvitation(app.db, user, await requireLinkBaseUrl(app.db, app.config.baseUrl));
      await audit(request, { category: 'user', action: 'invitation sent', target: user.name });
      return { message: `An invitation was sent to ${user.email ?? ''}.` };
    },
  );
};
