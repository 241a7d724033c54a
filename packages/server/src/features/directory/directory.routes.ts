import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LDAP_MESSAGES,
  formatMessage,
  ldapDirectoryGroupSchema,
  ldapGroupSettingBodySchema,
  ldapImportBodySchema,
  ldapSettingBodySchema,
  ldapSettingSchema,
  ldapTestBodySchema,
  ldapTestResultSchema,
  type LdapGroupSetting,
  type LdapSetting,
} from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import {
  deleteGroupSetting,
  deleteLdapSetting,
  directoryGroupsOf,
  getLdapSetting,
  importDirectoryGroups,
  listGroupSettings,
  listLdapSettings,
  saveGroupSetting,
  saveLdapSetting,
  testLdapSetting,
} from './directory.service.js';

const keyParams = z.object({ key: z.string().max(64) });
const nameParams = z.object({ name: z.string().max(64) });
const groupSettingSchema = ldapGroupSettingBodySchema;

/** The console's calls: LDAP settings, their test, group settings and the import of directory groups. */
export const directoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { access: 'admin' as const };
  app.get('/ui/ldap/settings', { config: admin, schema: { response: { 200: z.array(ldapSettingSchema) } } }, () =>
    listLdapSettings(app.db),
  );
  app.get(
    '/ui/ldap/settings/:key',
    { config: admin, schema: { params: keyParams, response: { 200: ldapSettingSchema } } },
    (request) => getLdapSetting(app.db, request.params.key),
  );
  app.post(
    '/ui/ldap/settings',
    { config: admin, schema: { body: ldapSettingBodySchema, response: { 201: ldapSettingSchema } } },
    async (request, reply) => reply.status(201).send(await saveLdapSetting(request, request.body)),
  );
  app.put(
    '/ui/ldap/settings/:key',
    { config: admin, schema: { params: keyParams, body: ldapSettingBodySchema, response: { 200: ldapSettingSchema } } },
    (request) => saveLdapSetting(request, request.body, request.params.key),
  );
  app.delete('/ui/ldap/settings/:key', { config: admin, schema: { params: keyParams } }, async (request, reply) => {
    await deleteLdapSetting(request, request.params.key);
    return reply.status(204).send();
  });
  app.post(
    '/ui/ldap/test',
    { config: admin, schema: { body: ldapTestBodySchema, response: { 200: ldapTestResultSchema } } },
    (request) => testLdapSetting(app.db, request.body),
  );
  app.get('/ui/ldap/groups', { config: admin, schema: { response: { 200: z.array(groupSettingSchema) } } }, () =>
    listGroupSettings(app.db),
  );
  app.post(
    '/ui/ldap/groups',
    { config: admin, schema: { body: ldapGroupSettingBodySchema, response: { 201: groupSettingSchema } } },
    async (request, reply) => reply.status(201).send(await saveGroupSetting(request, request.body)),
  );
  app.put(
    '/ui/ldap/groups/:name',
    {
      config: admin,
      schema: { params: nameParams, body: ldapGroupSettingBodySchema, response: { 200: groupSettingSchema } },
    },
    (request) => saveGroupSetting(request, request.body, request.params.name),
  );
  app.delete('/ui/ldap/groups/:name', { config: admin, schema: { params: nameParams } }, async (request, reply) => {
    await deleteGroupSetting(request, request.params.name);
    return reply.status(204).send();
  });
  app.get(
    '/ui/ldap/groups/:name/directory',
    { config: admin, schema: { params: nameParams, response: { 200: z.array(ldapDirectoryGroupSchema) } } },
    (request) => directoryGroupsOf(app.db, request.params.name),
  );
  app.post(
    '/ui/ldap/groups/:name/import',
    {
      config: admin,
      schema: {
        params: nameParams,
        body: ldapImportBodySchema,
        response: { 200: z.object({ imported: z.array(z.string()) }) },
      },
    },
    async (request) => ({ imported: await importDirectoryGroups(request, request.params.name, request.body.names) }),
  );
};

/** Access's shape of an LDAP setting (snake case, the search fields grouped; the password never answered). */
const accessSetting = (s: LdapSetting) => ({
  key: s.key,
  enabled: s.enabled,
  ldap_url: s.ldapUrl,
  user_dn_pattern: s.userDnPattern || null,
  search: {
    search_filter: s.searchFilter || null,
    search_base: s.searchBase || null,
    search_sub_tree: s.searchSubTree,
    manager_dn: s.managerDn || null,
    manager_password: null,
  },
  auto_create_user: s.autoCreateUser,
  email_attribute: s.emailAttribute,
  ldap_poisoning_protection: true,
  allow_user_to_access_profile: false,
  paging_support_enabled: false,
  start_tls: s.startTls,
});

const accessSettingBody = z.object({
  key: z.string(),
  enabled: z.boolean().optional(),
  ldap_url: z.string(),
  user_dn_pattern: z.string().nullish(),
  search: z
    .object({
      search_filter: z.string().nullish(),
      search_base: z.string().nullish(),
      search_sub_tree: z.boolean().nullish(),
      manager_dn: z.string().nullish(),
      manager_password: z.string().nullish(),
    })
    .optional(),
  auto_create_user: z.boolean().optional(),
  email_attribute: z.string().nullish(),
  start_tls: z.boolean().optional(),
});

function fromAccess(body: z.infer<typeof accessSettingBody>) {
  const parsed = ldapSettingBodySchema.safeParse({
    key: body.key,
    enabled: body.enabled ?? true,
    ldapUrl: body.ldap_url,
    startTls: body.start_tls ?? false,
    userDnPattern: body.user_dn_pattern ?? '',
    searchFilter: body.search?.search_filter ?? '',
    searchBase: body.search?.search_base ?? '',
    searchSubTree: body.search?.search_sub_tree ?? true,
    managerDn: body.search?.manager_dn ?? '',
    ...(body.search?.manager_password != null ? { managerPassword: body.search.manager_password } : {}),
    emailAttribute: body.email_attribute ?? 'mail',
    autoCreateUser: body.auto_create_user ?? true,
  });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  return parsed.data;
}

const accessGroup = (g: LdapGroupSetting) => ({
  name: g.name,
  enabled_ldap: g.ldapSettingKey,
  group_base_dn: g.groupBaseDn || null,
  group_name_attribute: g.groupNameAttribute,
  group_member_attribute: g.groupMemberAttribute,
  sub_tree: g.subTree,
  force_attribute_search: false,
  filter: g.filter,
  description_attribute: g.descriptionAttribute,
  strategy: g.strategy,
});

const accessGroupBody = z.object({
  name: z.string(),
  enabled_ldap: z.string(),
  group_base_dn: z.string().nullish(),
  group_name_attribute: z.string().nullish(),
  group_member_attribute: z.string().nullish(),
  sub_tree: z.boolean().nullish(),
  filter: z.string().nullish(),
  description_attribute: z.string().nullish(),
  strategy: z.string().nullish(),
});

function groupFromAccess(body: z.infer<typeof accessGroupBody>) {
  const parsed = ldapGroupSettingBodySchema.safeParse({
    name: body.name,
    ldapSettingKey: body.enabled_ldap,
    groupBaseDn: body.group_base_dn ?? '',
    groupNameAttribute: body.group_name_attribute ?? 'cn',
    groupMemberAttribute: body.group_member_attribute ?? 'member',
    subTree: body.sub_tree ?? true,
    filter: body.filter ?? '(objectClass=groupOfNames)',
    descriptionAttribute: body.description_attribute ?? 'description',
    strategy: (body.strategy ?? 'STATIC').toUpperCase(),
  });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** Access's LDAP calls (`/access/api/v1/ldap/settings`, `/access/api/v1/ldap/groups`), for scripts and Terraform. */
export const directoryAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { access: 'admin' as const };
  const settings = '/access/api/v1/ldap/settings';
  app.get(settings, { config: admin }, async () => (await listLdapSettings(app.db)).map(accessSetting));
  app.get(`${settings}/:key`, { config: admin, schema: { params: keyParams } }, async (request) =>
    accessSetting(await getLdapSetting(app.db, request.params.key)),
  );
  app.post(settings, { config: admin, schema: { body: accessSettingBody } }, async (request, reply) =>
    reply.status(201).send(accessSetting(await saveLdapSetting(request, fromAccess(request.body)))),
  );
  app.put(
    `${settings}/:key`,
    { config: admin, schema: { params: keyParams, body: accessSettingBody } },
    async (request) => accessSetting(await saveLdapSetting(request, fromAccess(request.body), request.params.key)),
  );
  app.delete(`${settings}/:key`, { config: admin, schema: { params: keyParams } }, async (request, reply) => {
    await deleteLdapSetting(request, request.params.key);
    return reply.status(204).send();
  });
  const groups = '/access/api/v1/ldap/groups';
  app.get(groups, { config: admin }, async () => (await listGroupSettings(app.db)).map(accessGroup));
  app.get(`${groups}/:name`, { config: admin, schema: { params: nameParams } }, async (request) => {
    const found = (await listGroupSettings(app.db)).find((g) => g.name === request.params.name);
    if (!found) throw notFound(formatMessage(LDAP_MESSAGES.groupSettingNotFound, { name: request.params.name }));
    return accessGroup(found);
  });
  app.post(groups, { config: admin, schema: { body: accessGroupBody } }, async (request, reply) =>
    reply.status(201).send(accessGroup(await saveGroupSetting(request, groupFromAccess(request.body)))),
  );
  // Access updates a group setting named in its body
  app.put(groups, { config: admin, schema: { body: accessGroupBody } }, async (request) =>
    accessGroup(await saveGroupSetting(request, groupFromAccess(request.body), request.body.name)),
  );
  app.delete(`${groups}/:name`, { config: admin, schema: { params: nameParams } }, async (request, reply) => {
    await deleteGroupSetting(request, request.params.name);
    return reply.status(204).send();
  });
};
