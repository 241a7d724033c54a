import { describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGES,
  PASSWORD_FLOW_MESSAGES,
  PROJECT_MESSAGES,
  userFormSchema,
  normalizeErrorMessages,
} from '@arca/contracts';
import { ApiError } from '../api/client';
import { nameProblem } from './name-rules';
import { messagesOf } from './server-errors';

/**
 * The texts of spec part 2 §8 (and part 1 §5) that belong to pages the console has, each checked
 * where the console produces it. A failure the server explains in its own words shows those words;
 * these are what shows when it does not.
 */
const silentFailure = () => new ApiError(500, [ERROR_MESSAGES.default], undefined);

describe('spec texts of the built pages', () => {
  it("'No response received from server' when the server cannot be reached", () => {
    expect(normalizeErrorMessages({ noResponse: true, message: 'Failed to fetch' })).toEqual([
      'No response received from server',
    ]);
  });

  it("'Error. Please check the product's logs.' when a failure says nothing", () => {
    expect(normalizeErrorMessages({ body: undefined, message: '' })).toEqual([
      "Error. Please check the product's logs.",
    ]);
  });

  it("'Email wasn't sent' on the forgot-password page", () => {
    expect(messagesOf(silentFailure(), PASSWORD_FLOW_MESSAGES.emailNotSent)).toEqual(["Email wasn't sent"]);
  });

  it("'Failed to reset the password' on the reset-password page", () => {
    expect(messagesOf(silentFailure(), PASSWORD_FLOW_MESSAGES.resetFailed)).toEqual(['Failed to reset the password']);
  });

  it("'Failed to change password' on the change-password and invitation pages", () => {
    expect(messagesOf(silentFailure(), PASSWORD_FLOW_MESSAGES.changeFailed)).toEqual(['Failed to change password']);
  });

  it("'something went wrong' when a one-time code check fails without a message", () => {
    expect(messagesOf(silentFailure(), PASSWORD_FLOW_MESSAGES.otpFailed)).toEqual(['something went wrong']);
  });

  it("'Failed to create a project' on the projects page", () => {
    expect(messagesOf(silentFailure(), PROJECT_MESSAGES.createFailed)).toEqual(['Failed to create a project']);
  });

  it('keeps the server’s own explanation over the fallback', () => {
    const refused = new ApiError(409, ["A user named 'ann' already exists."], undefined);
    expect(messagesOf(refused, PASSWORD_FLOW_MESSAGES.changeFailed)).toEqual(["A user named 'ann' already exists."]);
  });

  it("'User name is required' and 'This name already exist' on the user form", () => {
    const users = { schema: userFormSchema.shape.name, existing: ['ann'] };
    expect(nameProblem('', users)).toBe('User name is required');
    expect(nameProblem('ANN', users)).toBe('This name already exist');
  });

  it("'This field is mandatory.' and 'Enter a valid URL.' are the form texts", () => {
    expect(ERROR_MESSAGES.mandatory).toBe('This field is mandatory.');
    expect(ERROR_MESSAGES.invalidUrl).toBe('Enter a valid URL.');
  });

  it("'You are not authorized to view this page' and 'The object you were looking for could not be found.'", () => {
    expect(ERROR_MESSAGES.notAuthorized).toBe('You are not authorized to view this page');
    expect(ERROR_MESSAGES.notFound).toBe('The object you were looking for could not be found.');
  });
});
