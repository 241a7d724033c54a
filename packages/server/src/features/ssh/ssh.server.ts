import { timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import ssh2, { type AuthContext, type Connection, type ServerChannel } from 'ssh2';
import {
  SSH_DEFAULT_PORT,
  SSH_MESSAGES,
  SSH_TOKEN_SECONDS,
  TOKEN_SCOPE_USER,
  formatMessage,
  type SshAuthentication,
  type SshServer,
  type SshServerSettings,
} from '@arca/contracts';
import type { UserRow } from '../../db/schema.js';
import { onConfigChanged } from '../../core/config-cache.js';
import { recordChange } from '../../core/changes.js';
import { badRequest } from '../../core/errors.js';
import { seal, unseal } from '../../core/sealing.js';
import { getSetting, putSetting } from '../../core/settings.store.js';
import { createAccessToken } from '../tokens/index.js';
import { countSshKeys, keyByFingerprint, parsedPublicKey, sshFingerprint, touchSshKey } from './ssh.keys.js';

// ssh2 is CommonJS whose exports Node cannot name statically
const { Server, utils } = ssh2;
const HOST_KEY_CONTEXT = 'ssh-host-key';
const TOKEN_DESCRIPTION = 'SSH sign-in';
/** How often a node looks whether the SSH settings changed elsewhere. */
const RECONCILE_MS = 15_000;
/** The name of the loop that follows the settings. */
const RECONCILE_LOOP = 'ssh-reconcile';

/** A host key (OpenSSH or PEM private key), checked: unencrypted, one key. */
function readHostKey(text: string) {
  const parsed = utils.parseKey(text);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error || !key.isPrivateKey()) throw badRequest(SSH_MESSAGES.hostKeyInvalid, 'privateKey');
  return key;
}

function hostKeyFacts(text: string) {
  const key = readHostKey(text);
  const blob = key.getPublicSSH();
  return {
    algorithm: key.type,
    fingerprint: sshFingerprint(blob),
    publicKey: `${key.type} ${blob.toString('base64')}`,
  };
}

/** Connections one node serves at a time; more are closed at once. */
const MAX_CONNECTIONS = 256;

interface Running {
  server: NetServer;
  port: number;
  hostKeyFingerprint: string;
}

/**
 * The SSH server of this node: listens while the settings say so, on their port, with the
 * deployment's host key (every node answers with the same one). A client signs in with a key a
 * user registered and runs `jfrog-authenticate`, which answers the address of the REST API and a
 * short-lived access token of that user. Every node looks at the settings when configuration
 * changes and every 15 s, so that turning the server on or off reaches all of them.
 */
export class SshService {
  private running: Running | undefined;
  private problem = '';
  private reconciling: Promise<void> = Promise.resolve();
  /** Whether it follows the settings (from when the HTTP server listens until the app closes). */
  private following = false;
  private closed = false;
  private unfollow: (() => void) | undefined;

  constructor(private readonly app: FastifyInstance) {}

  async settings(): Promise<SshServerSettings> {
    const stored = await getSetting(this.app.db, 'ssh.server');
    return { enabled: stored.enabled ?? false, port: stored.port ?? SSH_DEFAULT_PORT };
  }

  private async hostKey(): Promise<string | undefined> {
    const sealed = await getSetting(this.app.db, 'ssh.hostKey');
    return sealed ? unseal(this.app.db, HOST_KEY_CONTEXT, sealed) : undefined;
  }

  async status(): Promise<SshServer> {
    const settings = await this.settings();
    const hostKey = await this.hostKey();
    const facts = hostKey ? hostKeyFacts(hostKey) : null;
    const host = new URL(this.baseUrl('127.0.0.1')).hostname;
    return {
      ...settings,
      listening: this.running !== undefined,
      problem: settings.enabled && !this.running ? this.problem : '',
      hostKey: facts,
      knownHostsLine: facts ? `[${host}]:${settings.port} ${facts.publicKey}` : '',
      userKeys: await countSshKeys(this.app.db),
    };
  }

  /**
   * Saves new settings once this node listens as they say (a port this node cannot take is
   * refused and nothing is saved); a host key is made the first time the server is turned on.
   */
  async change(next: SshServerSettings, actor: { actor: string; sourceIp: string }): Promise<void> {
    if (next.enabled && next.port === this.httpPort()) throw badRequest(SSH_MESSAGES.portTaken, 'port');
    const before = await this.settings();
    let hostKey = await this.hostKey();
    const made = next.enabled && !hostKey;
    if (made) hostKey = utils.generateKeyPairSync('ed25519').private;
    await this.serialized(async () => {
      await this.apply(next.enabled ? { port: next.port, hostKey: hostKey! } : undefined);
      if (next.enabled && !this.running) {
        const problem = this.problem;
        // as it was: the settings did not change
        if (before.enabled && hostKey && !made) await this.apply({ port: before.port, hostKey });
        throw badRequest(problem, 'port');
      }
      // saved in the same turn, so that a look at the settings meanwhile does not undo the listening
      await this.app.db.transaction().execute(async (trx) => {
        if (made) await putSetting(trx, 'ssh.hostKey', await seal(trx, HOST_KEY_CONTEXT, hostKey!));
        await putSetting(trx, 'ssh.server', next);
        await recordChange(trx, actor, {
          audit: { category: 'security', action: 'update', target: 'ssh server', before, after: next },
        });
      });
    });
  }

  /** Replaces the host key with the one given, or a new Ed25519 key; clients see a new host key. */
  async replaceHostKey(privateKey: string | undefined, actor: { actor: string; sourceIp: string }): Promise<void> {
    const hostKey = privateKey?.trim() ? `${privateKey.trim()}\n` : utils.generateKeyPairSync('ed25519').private;
    const facts = hostKeyFacts(hostKey);
    await this.app.db.transaction().execute(async (trx) => {
      await putSetting(trx, 'ssh.hostKey', await seal(trx, HOST_KEY_CONTEXT, hostKey));
      await recordChange(trx, actor, {
        audit: {
          category: 'security',
          action: privateKey?.trim() ? 'import' : 'generate',
          target: 'ssh host key',
          after: { algorithm: facts.algorithm, fingerprint: facts.fingerprint },
        },
      });
    });
    await this.reconcile();
  }

  /** From when the HTTP server listens: follow the settings until the app closes. */
  startFollowing(): void {
    // the app's listen hooks run after listen() answers: the app may have closed meanwhile
    if (this.following || this.closed) return;
    this.following = true;
    this.unfollow = onConfigChanged(() => void this.reconcile());
    // a change made on another node reaches this one's settings at the next look (a loop of the process)
    this.app.work.every(RECONCILE_LOOP, RECONCILE_MS, () => this.reconcile());
    void this.reconcile();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.following = false;
    await this.app.work.endLoop(RECONCILE_LOOP);
    this.unfollow?.();
    this.unfollow = undefined;
    await this.serialized(() => this.apply(undefined));
  }

  /** Listens as the stored settings say. */
  reconcile(): Promise<void> {
    return this.serialized(async () => {
      if (!this.following && !this.running) return;
      const settings = await this.settings();
      const hostKey = settings.enabled ? await this.hostKey() : undefined;
      await this.apply(settings.enabled && hostKey ? { port: settings.port, hostKey } : undefined);
    }).catch((error: unknown) => this.app.log.warn({ err: error }, 'the SSH server could not follow its settings'));
  }

  private serialized(work: () => Promise<void>): Promise<void> {
    const next = this.reconciling.then(work, work);
    this.reconciling = next.catch(() => undefined);
    return next;
  }

  private async apply(wanted: { port: number; hostKey: string } | undefined): Promise<void> {
    const fingerprint = wanted ? hostKeyFacts(wanted.hostKey).fingerprint : '';
    const current = this.running;
    if (current && wanted && current.port === wanted.port && current.hostKeyFingerprint === fingerprint) return;
    if (!current && !wanted) return;
    if (current) {
      this.running = undefined;
      await new Promise<void>((resolve) => current.server.close(() => resolve()));
    }
    if (!wanted) return;
    // the sockets are taken here and handed to the SSH protocol, so that an answer knows the
    // address the client reached (the REST API's is the same host)
    const localAddresses = new Map<string, string>();
    const ssh = new Server({ hostKeys: [wanted.hostKey], ident: 'Arca' }, (client, info) =>
      this.serve(client, info.ip, localAddresses.get(`${info.ip}|${info.port}`) ?? '127.0.0.1'),
    );
    ssh.maxConnections = MAX_CONNECTIONS;
    const server = createServer((socket) => {
      const key = `${socket.remoteAddress}|${socket.remotePort}`;
      localAddresses.set(key, (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, ''));
      socket.once('close', () => localAddresses.delete(key));
      ssh.injectSocket(socket);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(wanted.port, this.app.config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      server.on('error', (error: Error) => this.app.log.warn({ err: error }, 'SSH server error'));
      this.running = { server, port: wanted.port, hostKeyFingerprint: fingerprint };
      this.problem = '';
      this.app.log.info(`The SSH server listens on port ${wanted.port}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.problem =
        code === 'EADDRINUSE'
          ? `The port ${wanted.port} is in use on this node.`
          : code === 'EACCES'
            ? `This node may not listen on port ${wanted.port}.`
            : `The SSH server cannot listen on port ${wanted.port}: ${(error as Error).message}`;
      this.app.log.warn(this.problem);
    }
  }

  private httpPort(): number {
    const bound = this.app.server.address() as AddressInfo | null;
    return bound?.port ?? this.app.config.port;
  }

  /** Where the REST API is, as clients of this node reach it. */
  private baseUrl(localAddress: string): string {
    return (
      this.app.config.baseUrl ??
      `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${this.httpPort()}`
    );
  }

  private async customBaseUrl(localAddress: string): Promise<string> {
    const general = await getSetting(this.app.db, 'general');
    return (general.customUrlBase || this.baseUrl(localAddress)).replace(/\/+$/, '');
  }

  private serve(client: Connection, ip: string, localAddress: string): void {
    let signedIn: (UserRow & { key_id: string }) | undefined;
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      this.authenticate(ctx).then(
        (user) => {
          if (user === 'query') return ctx.accept();
          if (!user) return ctx.reject(['publickey']);
          signedIn = user;
          ctx.accept();
        },
        () => ctx.reject(['publickey']),
      );
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('pty', (accept) => accept?.());
        session.on('env', (accept) => accept?.());
        session.once('shell', (accept) => {
          const channel = accept();
          channel.stderr.write(
            `Hi ${signedIn!.name}! You are signed in to Arca. Run 'jfrog-authenticate' for an access token; there is no shell.\r\n`,
          );
          channel.exit(1);
          channel.end();
        });
        session.once('exec', (accept, _reject, info) => {
          const channel = accept();
          void this.exec(channel, info.command, signedIn!, ip, localAddress);
        });
      });
    });
  }

  /**
   * A public-key sign-in: the key's registered user. Without a signature the client only asks
   * whether the key would do ('query'); with one, the signature is checked over the session data.
   */
  private async authenticate(ctx: AuthContext): Promise<(UserRow & { key_id: string }) | 'query' | undefined> {
    if (ctx.method !== 'publickey') return undefined;
    const found = await keyByFingerprint(this.app.db, sshFingerprint(ctx.key.data));
    if (!found) return undefined;
    const parsed = parsedPublicKey(found.public_key);
    const stored = parsed?.getPublicSSH();
    if (!parsed || !stored || stored.length !== ctx.key.data.length || !timingSafeEqual(stored, ctx.key.data)) {
      return undefined;
    }
    if (!ctx.signature || !ctx.blob) return 'query';
    if (parsed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return undefined;
    const { key_id, public_key: _p, title: _t, ...user } = found;
    return { ...user, key_id };
  }

  private async exec(
    channel: ServerChannel,
    command: string,
    user: UserRow & { key_id: string },
    ip: string,
    localAddress: string,
  ): Promise<void> {
    const name = command.trim().split(/\s+/)[0] ?? '';
    if (name !== 'jfrog-authenticate') {
      channel.stderr.write(`${formatMessage(SSH_MESSAGES.unknownCommand, { command: name })}\n`);
      channel.exit(127);
      channel.end();
      return;
    }
    try {
      const db = this.app.db;
      const now = Date.now();
      const { key_id: keyId, ...row } = user;
      // the tokens earlier sign-ins left behind, expired, go: the profile lists only live ones
      await db
        .deleteFrom('access_tokens')
        .where('user_id', '=', row.id)
        .where('description', '=', TOKEN_DESCRIPTION)
        .where('expires_at', '<=', now)
        .execute();
      const { token } = await createAccessToken(
        db,
        row,
        { description: TOKEN_DESCRIPTION, expiresIn: SSH_TOKEN_SECONDS, scope: TOKEN_SCOPE_USER },
        (trx) =>
          recordChange(
            trx,
            { actor: row.name, sourceIp: ip },
            {
              audit: { category: 'auth', action: 'ssh sign-in', target: row.name },
            },
          ),
        now,
      );
      await touchSshKey(db, keyId, now);
      const answer: SshAuthentication = {
        href: `${await this.customBaseUrl(localAddress)}/artifactory/`,
        headers: { Authorization: `Bearer ${token}` },
        expires_in: SSH_TOKEN_SECONDS,
      };
      channel.write(`${JSON.stringify(answer)}\n`);
      channel.exit(0);
    } catch (error) {
      this.app.log.warn({ err: error }, 'an SSH sign-in failed');
      channel.stderr.write('The access token could not be issued; try again.\n');
      channel.exit(1);
    }
    channel.end();
  }
}
