import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { MenuContext, MenuItem } from '../../../lib/menu';
import { AdminMenu } from './admin-menu-page';

const items: MenuItem[] = [
  {
    key: 'users',
    label: 'Users',
    path: '/u',
    sidebar: 'administration',
    group: 'User Management',
    description: 'People',
  },
  { key: 'groups', label: 'Groups', path: '/g', sidebar: 'administration', group: 'User Management' },
  { key: 'buckets', label: 'License Buckets', path: '/b', sidebar: 'administration', group: 'Licenses', minRank: 5 },
  { key: 'cloud', label: 'Subscription', path: '/s', sidebar: 'administration', group: 'Licenses', cloudOnly: true },
  { key: 'overview', label: 'Overview', path: '/o', sidebar: 'application' },
];
const ctx: MenuContext = {
  admin: true,
  licenseRank: 1,
  services: {},
  features: {},
  cloud: false,
  dedicatedCloud: false,
};

function setup() {
  const router = createMemoryRouter([{ path: '/', element: <AdminMenu items={items} ctx={ctx} /> }]);
  render(<RouterProvider router={router} />);
  return userEvent.setup();
}

describe('the admin menu page', () => {
  it('groups administration entries in cards, application entries left out', () => {
    setup();
    expect(screen.getByText('User Management')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Users/ })).toHaveAttribute('href', '/u');
    expect(screen.queryByText('Overview')).not.toBeInTheDocument();
  });

  it('shows an entry hidden from the sidebar with a tooltip saying why', async () => {
    const user = setup();
    const entry = screen.getByText('Subscription').closest('[aria-disabled="true"]') as HTMLElement;
    await user.hover(entry);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Available on cloud only');
  });

  it('shows a disabled entry greyed, not as a link, with the reason in a tooltip', async () => {
    const user = setup();
    const entry = screen.getByText('License Buckets').closest('[aria-disabled="true"]') as HTMLElement;
    expect(entry).not.toBeNull();
    expect(screen.queryByRole('link', { name: /License Buckets/ })).not.toBeInTheDocument();
    await user.hover(entry);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Needs an Enterprise+ license');
  });

  it('filters by the search and highlights the matches', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Search settings'), 'peop');
    const link = screen.getByRole('link', { name: /Users/ });
    expect(within(link).getByText('Peop', { selector: 'mark' })).toBeInTheDocument();
    expect(screen.queryByText('Groups')).not.toBeInTheDocument();
    expect(screen.queryByText('Licenses')).not.toBeInTheDocument();
  });

  it('says what to do when nothing matches', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Search settings'), 'zzz');
    expect(screen.getByText(/No settings match “zzz”/)).toBeInTheDocument();
  });
});
