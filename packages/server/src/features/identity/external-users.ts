import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { recordChange } from '../../core/changes.js';
import { credentialsChanged } from '../../core/credentials.js';
import { findUserByName, findUserBySubject, insertUser } from './identity.store.js';

/** What a directory or identity provider says of a user who signed in through it. */
export interface ExternalIdentity {
  name: string;
  email: string | null;
  realm: string;
  /** The LDAP setting or provider it came through. */
  source: string;
  /** The groups whose membership the source governs (imported or mapped), and those it gives the user. */
  governed: readonly string[];
  memberOf: readonly string[];
  /** For an OpenID provider's user: `<issuer> <sub>`, what the account is tied to. */
  subject?: string;
}

/**
 * The Arca user of an external identity, made at its first sign-in (with the groups every new
 * user joins) or brought in line with it: e-mail, source, and its memberships of the groups the
 * source governs — others are left as administrators set them. A change is recorded (and ends
 * cached rights) only when something changed.
 */
export async function reflectExternalUser(
  db: Db,
  identity: ExternalIdentity,
  existing: UserRow | undefined,
): Promise<UserRow> {
  const governed = new Set(identity.governed);
  const member = [...new Set(identity.memberOf)].filter((g) => governed.has(g)).sort();
  const current = existing
    ? (await db.selectFrom('group_members').select('group_name').where('user_id', '=', existing.id).execute())
        .map((r) => r.group_name)
        .filter((g) => governed.has(g))
        .sort()
    : [];
  const sameGroups = current.join('\n') === member.join('\n');
  if (existing && sameGroups && existing.email === identity.email && existing.external_source === identity.source) {
    return existing;
  }
  const now = Date.now();
  const actor = { actor: identity.name, sourceIp: '' };
  const message = `from ${identity.realm} ${identity.source}`;
  let user = existing;
  await db.transaction().execute(async (trx) => {
    // the first sign-ins of a new user on two nodes at once: the second takes the first's row
    user ??= identity.subject
      ? await findUserBySubject(trx, identity.subject)
      : await findUserByName(trx, identity.name);
    if (!user) {
      const autoJoin = (await trx.selectFrom('groups').select('name').where('auto_join', '=', 1).execute()).map(
        (g) => g.name,
      );
      const row: UserRow = {
        id: randomUUID(),
        name: identity.name,
        email: identity.email,
        password_hash: null,
        admin: 0,
        disable_ui_access: 0,
        must_change_password: 0,
        realm: identity.realm,
        external_source: identity.source,
        external_subject: identity.subject ?? null,
        created_at: now,
        last_login_at: null,
        mfa_secret: null,
        mfa_enrolled_at: null,
        mfa_last_step: null,
        password_changed_at: null,
      };
      await insertUser(trx, row);
      const joined = [...new Set([...autoJoin, ...member])];
      if (joined.length) {
        await trx
          .insertInto('group_members')
          .values(joined.map((group_name) => ({ group_name, user_id: row.id })))
          .execute();
      }
      await recordChange(trx, actor, {
        audit: { category: 'user', action: 'create', target: identity.name, message, after: { groups: joined } },
        event: { type: 'user.created', payload: { name: identity.name } },
      });
      user = row;
      return;
    }
    const id = user.id;
    await trx
      .updateTable('users')
      .set({ email: identity.email, external_source: identity.source })
      .where('id', '=', id)
      .execute();
    const gone = current.filter((g) => !member.includes(g));
    const added = member.filter((g) => !current.includes(g));
    if (gone.length)
      await trx.deleteFrom('group_members').where('user_id', '=', id).where('group_name', 'in', gone).execute();
    if (added.length) {
      await trx
        .insertInto('group_members')
        .values(added.map((group_name) => ({ group_name, user_id: id })))
        .execute();
    }
    await recordChange(trx, actor, {
      audit: {
        category: 'user',
        action: 'update',
        target: identity.name,
        message,
        before: { groups: current, email: user.email },
        after: { groups: member, email: identity.email },
      },
    });
    user = { ...user, email: identity.email, external_source: identity.source };
  });
  credentialsChanged(user!.id);
  return user!;
}
