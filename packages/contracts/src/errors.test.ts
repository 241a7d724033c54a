import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, normalizeErrorMessage, normalizeErrorMessages } from './errors.js';

describe('normalizeErrorMessage (spec part 2 §8.1)', () => {
  it('reads every entry of an errors array', () => {
    const body = {
      errors: [
        { status: 400, message: 'first' },
        { status: 400, message: 'second' },
      ],
    };
    expect(normalizeErrorMessages({ body })).toEqual(['first', 'second']);
    expect(normalizeErrorMessage({ body })).toBe('first\nsecond');
  });
  it('reads detail when an entry has no message', () => {
    expect(normalizeErrorMessage({ body: { errors: [{ status: 409, detail: 'already there' }] } })).toBe(
      'already there',
    );
  });
  it('replaces a message holding JSON text by its error field', () => {
    const body = { errors: [{ status: 500, message: '{"error":"Upstream said no"}' }] };
    expect(normalizeErrorMessage({ body })).toBe('Upstream said no');
  });
  it('keeps a message that only looks like JSON', () => {
    expect(normalizeErrorMessage({ body: { errors: [{ status: 400, message: '{not json' }] } })).toBe('{not json');
  });
  it('falls back to feedbackMsg.error', () => {
    expect(normalizeErrorMessage({ body: { feedbackMsg: { error: 'Feedback error' } } })).toBe('Feedback error');
  });
  it('falls back to error', () => {
    expect(normalizeErrorMessage({ body: { error: 'Plain error field' } })).toBe('Plain error field');
  });
  it('falls back to message', () => {
    expect(normalizeErrorMessage({ body: { message: 'Message field' } })).toBe('Message field');
  });
  it('prefers the errors array over the other fields', () => {
    expect(normalizeErrorMessage({ body: { errors: [{ message: 'A' }], error: 'B', message: 'C' } })).toBe('A');
  });
  it('uses a plain string body', () => {
    expect(normalizeErrorMessage({ body: 'Service Unavailable' })).toBe('Service Unavailable');
  });
  it('says so when no response was received', () => {
    expect(normalizeErrorMessage({ noResponse: true, message: 'Failed to fetch' })).toBe(ERROR_MESSAGES.noResponse);
  });
  it("uses the error's own message when the body says nothing", () => {
    expect(normalizeErrorMessage({ body: {}, message: 'Request timed out' })).toBe('Request timed out');
  });
  it('uses the default text when nothing else is known', () => {
    expect(normalizeErrorMessage({})).toBe("Error. Please check the product's logs.");
    expect(normalizeErrorMessage({ body: { errors: [] } })).toBe(ERROR_MESSAGES.default);
    expect(normalizeErrorMessage({ body: '   ' })).toBe(ERROR_MESSAGES.default);
  });
});
