import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { UNSAVED_CHANGES } from '@arca/contracts';
import { useUnsavedChanges } from './unsaved-changes';

function FormPage() {
  const [value, setValue] = useState('');
  const unsaved = useUnsavedChanges({ initial: { value: '' }, current: { value }, onReset: () => setValue('') });
  return (
    <div>
      <label htmlFor="v">Value</label>
      <input id="v" value={value} onChange={(e) => setValue(e.target.value)} />
      <button onClick={unsaved.requestReset}>Reset form</button>
      <Link to="/elsewhere">Leave</Link>
      <Link to="/login">Login</Link>
      {unsaved.dialog}
    </div>
  );
}

function setup() {
  const router = createMemoryRouter(
    [
      { path: '/form', element: <FormPage /> },
      { path: '/elsewhere', element: <h1>Elsewhere</h1> },
      { path: '/login', element: <h1>Login page</h1> },
    ],
    { initialEntries: ['/form'] },
  );
  render(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
  return { router, user: userEvent.setup() };
}

describe('unsaved changes', () => {
  it('leaves at once when nothing changed', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
  });

  it('asks before leaving with changes; Cancel stays, Discard leaves', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Value'), 'abc');
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(UNSAVED_CHANGES.title);
    expect(dialog).toHaveTextContent(UNSAVED_CHANGES.message);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByLabelText('Value')).toHaveValue('abc');
    await user.click(screen.getByRole('link', { name: 'Leave' }));
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeInTheDocument();
  });

  it('asks before a reset with the reset message and button', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Value'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Reset form' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(UNSAVED_CHANGES.resetMessage);
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByLabelText('Value')).toHaveValue('');
  });

  it('does not ask when going to the login page', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Value'), 'abc');
    await user.click(screen.getByRole('link', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
  });
});
