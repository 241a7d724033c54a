/** One snippet of the Set Me Up dialog. */
export interface Snippet {
  title: string;
  language: string;
  code: string;
  /** Snippets of one group show together under the group's name (one tab), each with its title. */
  group?: string;
}

/** Where a repository is reached and who is asking: what every format's snippets are made of. */
export interface SetMeUpTarget {
  /** `http(s)://host[:port]` of the server as clients reach it. */
  baseUrl: string;
  repoKey: string;
  user: string;
  /** A token generated for the snippets; without one they show `<PASSWORD>` to replace. */
  secret?: string;
}

/** What goes where the password belongs in a snippet. */
export function secretOf(target: SetMeUpTarget): string {
  return target.secret ?? '<PASSWORD>';
}
