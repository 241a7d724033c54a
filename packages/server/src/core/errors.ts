import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES, type ErrorBody } from '@arca/contracts';

/** An error whose message is meant for the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** A machine-readable reason the console acts on (for example PASSWORD_EXPIRED). */
    readonly code?: string,
    /** The field of the request body the message is about: the console shows it there. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** When the caller may ask again (a 503 of something being made): answered as `Retry-After`. */
  retryAfterSeconds?: number;

  /** The status line's reason phrase instead of the standard one: what clients that print only it show (pip, Maven). */
  reasonPhrase?: string;
}

/**
 * A download a security policy refuses: 403 with the message in the body and, since pip and Maven
 * print only the status line, as its reason phrase too (printable ASCII, as HTTP/1.1 wants it).
 */
export function downloadBlocked(message: string): HttpError {
  const error = new HttpError(403, message, 'DOWNLOAD_BLOCKED');
  error.reasonPhrase = message.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
  return error;
}

/** Sets an error's own reason phrase on the reply's status line, if it has one. */
export function withReasonPhrase(error: unknown, reply: FastifyReply): void {
  if (error instanceof HttpError && error.reasonPhrase) reply.raw.statusMessage = error.reasonPhrase;
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, undefined, field);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string = ERROR_MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string, field?: string) => new HttpError(409, message, undefined, field);
export const unavailable = (message: string, retryAfterSeconds: number) =>
  Object.assign(new HttpError(503, message), { retryAfterSeconds });

export function errorBody(status: number, message: string, code?: string, field?: string): ErrorBody {
  return { errors: [{ status, message, ...(code ? { code } : {}), ...(field ? { field } : {}) }] };
}

/** One error handler: 4xx messages pass through in the `errors` shape; 5xx are generic and logged. */
export const errorHandlerPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const messages = error.validation.map((issue) => {
          const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
          const field = where || error.validationContext || 'request';
          return { status: 400, message: `${field}: ${issue.message}`, ...(where ? { field: where } : {}) };
        });
        return reply.status(400).send({ errors: messages });
      }
      const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
      if (status >= 500 && error instanceof HttpError) {
        // a failure of something outside (mail server, upstream) whose message is meant for the caller
        request.log.warn({ err: error }, 'request failed');
        if (error.retryAfterSeconds) reply.header('Retry-After', String(error.retryAfterSeconds));
        return reply.status(status).send(errorBody(status, error.message, error.code));
      }
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.status(status).send(errorBody(status, `${ERROR_MESSAGES.internal} (${request.id})`));
      }
      withReasonPhrase(error, reply);
      // package clients retry with credentials when asked; the console never is (no browser dialog)
      if (status === 401 && !request.url.startsWith('/ui/')) reply.header('WWW-Authenticate', 'Basic realm="Arca"');
      return reply
        .status(status)
        .send(
          error instanceof HttpError
            ? errorBody(status, error.message, error.code, error.field)
            : errorBody(status, error.message),
        );
    });
    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send(errorBody(404, ERROR_MESSAGES.notFound));
    });
  },
  { name: 'arca-errors' },
);

/**
 * Errors of an encapsulated context whose clients print the body as it is (the go command,
 * gem): the message as plain text, a newline after it; 5xx generic and logged.
 */
export function answerErrorsAsText(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (status === 401) reply.header('WWW-Authenticate', 'Basic realm="Arca"');
    withReasonPhrase(error, reply);
    return reply
      .status(status)
      .type('text/plain; charset=utf-8')
      .send(`${status >= 500 ? `${ERROR_MESSAGES.internal} (${request.id})` : error.message}\n`);
  });
}
