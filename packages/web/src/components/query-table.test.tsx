import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIST_PAGE_SIZE } from '@arca/contracts';
import { ApiError } from '../api/client';
import { QueryTable } from './query-table';

interface Group {
  name: string;
}

const answered = {
  isPending: false,
  isLoading: false,
  isError: false,
  error: null as unknown,
  refetch: (): unknown => undefined,
};

function table(query: Partial<typeof answered>, rows: Group[] | undefined, filter = '') {
  return (
    <QueryTable<Group>
      rowKey="name"
      query={{ ...answered, ...query }}
      rows={rows}
      noun={['group', 'groups']}
      filter={filter}
      emptyText="No groups yet. Create one to give permissions to several users at once."
      columns={[{ title: 'Name', dataIndex: 'name' }]}
    />
  );
}

describe('a list page’s table', () => {
  it('says it is loading while the list has not answered, never that there is none', async () => {
    render(table({ isPending: true, isLoading: true }, undefined));
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the groups…');
    expect(screen.queryByText(/No groups yet/)).not.toBeInTheDocument();
  });

  it('says what failed, with the server’s reason and a retry', async () => {
    const refetch = vi.fn();
    const error = new ApiError(503, ['The database is unreachable.'], undefined);
    render(table({ isError: true, error, refetch }, undefined));
    expect(screen.getByText('The groups could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The database is unreachable.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: /Retry/ }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('tells an empty list from a filter that matches nothing', () => {
    const { rerender } = render(table({}, []));
    expect(screen.getByText('No groups yet. Create one to give permissions to several users at once.')).toBeVisible();
    rerender(table({}, [], '  ops '));
    expect(screen.getByText('No group matches “ops”.')).toBeVisible();
  });

  it('shows a page of rows at a time with the count', () => {
    const rows = Array.from({ length: DEFAULT_LIST_PAGE_SIZE + 1 }, (_, i) => ({ name: `group-${i}` }));
    render(table({}, rows));
    const body = screen.getAllByRole('rowgroup').at(-1)!;
    expect(within(body).getAllByRole('row')).toHaveLength(DEFAULT_LIST_PAGE_SIZE);
    expect(screen.getByText(`${DEFAULT_LIST_PAGE_SIZE + 1} groups`)).toBeInTheDocument();
  });
});
