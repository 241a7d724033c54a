import type { ReverseProxySettings } from '@arca/contracts';

/** Where the reverse proxy reaches Arca when the settings name no address. */
const DEFAULT_UPSTREAM = 'http://127.0.0.1:8082';

/** Docker paths Arca serves at the registry's root; every other `/v2/…` path is rewritten to name the repository. */
const ROOT_V2 = '(?!token$)';

function tls(settings: ReverseProxySettings, port: number): string[] {
  return [
    `    listen ${port} ssl;`,
    `    ssl_certificate ${settings.sslCertificate || '/etc/ssl/certs/arca.crt'};`,
    `    ssl_certificate_key ${settings.sslKey || '/etc/ssl/private/arca.key'};`,
  ];
}

function listen(settings: ReverseProxySettings): string[] {
  return [
    ...(settings.useHttp ? [`    listen ${settings.httpPort};`] : []),
    ...(settings.useHttps ? tls(settings, settings.httpsPort) : []),
  ];
}

const PROXYING = [
  '    # artifacts of any size, streamed both ways',
  '    client_max_body_size 0;',
  '    proxy_request_buffering off;',
  '    proxy_buffering off;',
  '    proxy_read_timeout 900s;',
  '    proxy_send_timeout 900s;',
  '    proxy_http_version 1.1;',
  '    proxy_set_header Connection "";',
  '    proxy_set_header Host $http_host;',
  '    proxy_set_header X-Forwarded-Host $http_host;',
  '    proxy_set_header X-Forwarded-Proto $scheme;',
  '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  '    proxy_set_header X-Real-IP $remote_addr;',
];

function location(rewrite?: string): string[] {
  return [
    '    location / {',
    ...(rewrite ? [`        rewrite ^/v2/${ROOT_V2}(.+)$ /v2/${rewrite}/$1 break;`] : []),
    '        proxy_pass http://arca;',
    '    }',
  ];
}

/**
 * An nginx configuration (a `conf.d` file) that serves Arca at the settings' host name and ports,
 * Docker repositories as the method chosen asks: under the repository's path (nothing to rewrite),
 * at `<repository>.<server name>` (SUBDOMAIN), or each on its own port (PORTPERREPO).
 */
export function nginxConfig(settings: ReverseProxySettings): string {
  const upstream = new URL(settings.upstream || DEFAULT_UPSTREAM);
  const serverName = settings.serverName || '_';
  const out: string[] = [
    '## Arca behind nginx: generated from the reverse proxy settings (Administration > General Settings)',
    'upstream arca {',
    `    server ${upstream.host || '127.0.0.1:8082'};`,
    '    keepalive 32;',
    '}',
    '',
    'server {',
    ...listen(settings),
    `    server_name ${serverName}${
      settings.dockerReverseProxyMethod === 'SUBDOMAIN' && settings.serverName
        ? ` ~^(?<repo>[A-Za-z0-9][A-Za-z0-9._-]*)\\.${settings.serverName.replace(/\./g, '\\.')}$`
        : ''
    };`,
    ...PROXYING,
  ];
  if (settings.dockerReverseProxyMethod === 'SUBDOMAIN') {
    out.push(
      `    # Docker clients name a repository by its host: <repository>.${serverName}`,
      '    location ^~ /v2/ {',
      `        if ($repo != "") { rewrite ^/v2/${ROOT_V2}(.+)$ /v2/$repo/$1 break; }`,
      '        proxy_pass http://arca;',
      '    }',
    );
  }
  out.push(...location(), '}');
  if (settings.dockerReverseProxyMethod === 'PORTPERREPO') {
    for (const entry of settings.reverseProxyRepositories) {
      if (entry.port === undefined) continue;
      out.push(
        '',
        `## Docker repository ${entry.repoKey}: docker login ${settings.serverName || '<server>'}:${entry.port}`,
        'server {',
        ...(settings.useHttps ? tls(settings, entry.port) : [`    listen ${entry.port};`]),
        `    server_name ${serverName};`,
        ...PROXYING,
        ...location(entry.repoKey),
        '}',
      );
    }
  }
  return `${out.join('\n')}\n`;
}
