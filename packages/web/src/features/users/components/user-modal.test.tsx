import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import type { Group } from '@arca/contracts';
import { directoryKeys } from '../../../lib/queries/directory';
import { UserModal } from './user-modal';

describe('the new user dialog', () => {
  it('keeps what was typed when the groups arrive late, and adds the groups new users join', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(directoryKeys.usersList, []);
    render(
      <QueryClientProvider client={client}>
        <App>
          <UserModal open user={undefined} onClose={() => undefined} />
        </App>
      </QueryClientProvider>,
    );
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('User name'), 'dev1');
    await userEvent.type(within(dialog).getByLabelText('Password', { exact: true }), 'Dev1-password');
    // the list of groups answers only now, on a slow server
    act(() => {
      client.setQueryData(directoryKeys.groupsList, [
        { name: 'readers', autoJoin: true } as Group,
        { name: 'developers', autoJoin: false } as Group,
      ]);
    });
    await waitFor(() => expect(within(dialog).getByTitle('readers')).toBeInTheDocument());
    expect(within(dialog).getByLabelText('User name')).toHaveValue('dev1');
    expect(within(dialog).getByLabelText('Password', { exact: true })).toHaveValue('Dev1-password');
  });
});
