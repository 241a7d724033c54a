import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contentLoading } from './content-loading';
import { ApiError, apiFetch } from './client';
import { setNotifier } from './notifications';

const errors: string[] = [];
let requests: { url: string; init: RequestInit }[] = [];

function answer(status: number, body: unknown, contentType = 'application/json') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return new Response(status === 204 ? null : text, { status, headers: { 'Content-Type': contentType } });
    }),
  );
}

beforeEach(() => {
  errors.length = 0;
  requests = [];
  setNotifier({ error: (m) => errors.push(m), success: () => undefined });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNotifier(undefined);
});

describe('the console fetch wrapper', () => {
  it('sends the CSRF header, JSON body and query under the API base', async () => {
    answer(200, { ok: true });
    await apiFetch('ui/auth/login', {
      method: 'POST',
      body: { user: 'a' },
      query: { _spring_security_remember_me: 'true', skip: undefined },
    });
    const [{ url, init }] = requests as [{ url: string; init: RequestInit }];
    expect(url).toBe('/ui/api/v1/ui/auth/login?_spring_security_remember_me=true');
    expect((init.headers as Record<string, string>)['X-Requested-With']).toBe('XMLHttpRequest');
    expect(init.body).toBe('{"user":"a"}');
    expect(init.credentials).toBe('same-origin');
  });

  it.each([
    ['an errors array', 400, { errors: [{ status: 400, message: 'Bad key' }] }, 'Bad key'],
    ['JSON inside a message', 500, { errors: [{ status: 500, message: '{"error":"Inner"}' }] }, 'Inner'],
    ['feedbackMsg.error', 400, { feedbackMsg: { error: 'Feedback' } }, 'Feedback'],
    ['error', 400, { error: 'Plain' }, 'Plain'],
    ['message', 400, { message: 'Msg' }, 'Msg'],
    ['a plain string', 502, 'Bad Gateway from proxy', 'Bad Gateway from proxy'],
  ])('normalises %s and shows it as a notification', async (_name, status, body, message) => {
    answer(status, body, typeof body === 'string' ? 'text/plain' : 'application/json');
    const error = await apiFetch('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).message).toBe(message);
    expect(errors).toEqual([message]);
  });

  it("says 'No response received from server' when the request never got an answer", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiFetch('x')).rejects.toThrow('No response received from server');
    expect(errors).toEqual(['No response received from server']);
  });

  it('uses the status text, then the default text, when the body says nothing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 503, statusText: 'Service Unavailable' })),
    );
    await expect(apiFetch('x')).rejects.toThrow('Service Unavailable');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500 })),
    );
    await expect(apiFetch('x')).rejects.toThrow("Error. Please check the product's logs.");
    expect(errors).toEqual(['Service Unavailable', "Error. Please check the product's logs."]);
  });

  it('does not notify silent calls', async () => {
    answer(401, { errors: [{ status: 401, message: 'Nope' }] });
    await expect(apiFetch('x', { silent: true })).rejects.toThrow('Nope');
    expect(errors).toEqual([]);
  });

  it('counts calls in the content-loading indicator, and not background ones', async () => {
    contentLoading.reset();
    let seen = -1;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        seen = contentLoading.count;
        return new Response('{}', { status: 200 });
      }),
    );
    await apiFetch('x');
    expect(seen).toBe(1);
    expect(contentLoading.count).toBe(0);
    await apiFetch('x', { background: true });
    expect(seen).toBe(0);
  });
});
