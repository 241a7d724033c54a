import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** Who the identity provider knows (any password: it is a test provider). */
export const SAML_ACCOUNTS: Record<string, { email: string; groups: string[] }> = {
  frank: { email: 'frank@acme.test', groups: ['auditors'] },
  gina: { email: 'gina@acme.test', groups: [] },
};

/** How the next response is spoiled, to prove the service provider refuses it. */
/**
 * `recipient`: a properly signed assertion for this service provider, delivered to another
 * deployment's ACS; `idp-initiated`: one answering no request (no InResponseTo anywhere).
 */
export type SamlTamper = 'none' | 'unsigned' | 'foreign-key' | 'audience' | 'recipient' | 'idp-initiated';

export interface SamlTestIdp {
  url: string;
  metadataUrl: string;
  metadataXml: string;
  tamper(mode: SamlTamper): void;
  stop(): Promise<void>;
}

/** A key and a self-signed certificate made by openssl. */
function keyAndCertificate(dir: string, name: string): { key: string; cert: string } {
  const key = path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
    ],
    {
      stdio: 'ignore',
    },
  );
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
}

const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const readForm = async (request: http.IncomingMessage) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
};

/** Signs an element (by its ID) enveloped, as identity providers do: RSA-SHA256, exclusive C14N. */
function sign(xml: string, id: string, element: 'Assertion' | 'Response', key: string, cert: string): string {
  const signer = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: `//*[local-name(.)='${element}' and @ID='${id}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: {
      reference: `//*[local-name(.)='${element}' and @ID='${id}']/*[local-name(.)='Issuer']`,
      action: 'after',
    },
  });
  return signer.getSignedXml();
}

/**
 * A SAML 2.0 identity provider on a loopback port: metadata, the single sign-on service
 * (HTTP-Redirect binding in, a login form, then the signed response posted to the service
 * provider's assertion consumer service), a logout service. Its assertions are signed with a key
 * made by openssl; on request the next response is unsigned, signed by another key, or for
 * another audience.
 */
export async function startSamlIdp(): Promise<SamlTestIdp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-saml-idp-'));
  const own = keyAndCertificate(dir, 'idp');
  const foreign = keyAndCertificate(dir, 'intruder');
  let mode: SamlTamper = 'none';
  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base);
      if (url.pathname === '/metadata') {
        response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadataXml);
        return;
      }
      if (url.pathname === '/sso' && request.method === 'GET') {
        const authn = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
        const requestId = /ID="([^"]+)"/.exec(authn)?.[1] ?? '';
        const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(authn)?.[1] ?? '';
        const sp = /<(?:saml:)?Issuer[^>]*>([^<]+)</.exec(authn)?.[1] ?? '';
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body><h1>Acme IdP</h1>
<form method="post" action="/sso/login">
<input type="hidden" name="requestId" value="${escape(requestId)}"><input type="hidden" name="acs" value="${escape(acs)}">
<input type="hidden" name="sp" value="${escape(sp)}"><input type="hidden" name="relay" value="${escape(url.searchParams.get('RelayState') ?? '')}">
<label>User <input name="user" aria-label="IdP user"></label> <button type="submit">Sign in to Acme IdP</button></form></body></html>`);
        return;
      }
      if (url.pathname === '/sso/login' && request.method === 'POST') {
        const form = await readForm(request);
        const account = SAML_ACCOUNTS[form.user ?? ''];
        if (!account) {
          response.writeHead(401, { 'content-type': 'text/html' }).end('<p>Unknown user</p>');
          return;
        }
        const samlResponse = responseFor(form.user!, account, form.requestId!, form.acs!, form.sp!);
        response.writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html><html><body onload="document.forms[0].submit()">
<form method="post" action="${escape(form.acs!)}"><input type="hidden" name="SAMLResponse" value="${Buffer.from(samlResponse).toString('base64')}">
<input type="hidden" name="RelayState" value="${escape(form.relay ?? '')}"><noscript><button type="submit">Continue</button></noscript></form></body></html>`);
        return;
      }
      if (url.pathname === '/slo') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Signed out of Acme IdP</h1>');
        return;
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const metadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${base}/idp">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${bare(own.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/slo"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${base}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  function responseFor(
    user: string,
    account: { email: string; groups: string[] },
    inResponseTo: string,
    acs: string,
    sp: string,
  ) {
    const now = new Date();
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
    const responseId = `_${randomUUID()}`;
    const assertionId = `_${randomUUID()}`;
    const audience = mode === 'audience' ? 'https://someone-else.example.com' : sp;
    if (mode === 'recipient') acs = 'https://other-deployment.example.com/ui/api/v1/auth/saml/acs/acme-saml';
    if (mode === 'idp-initiated') inResponseTo = '';
    const answering = (text: string) => (inResponseTo ? text : '');
    const attribute = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${escape(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
    const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${now.toISOString()}"><saml:Issuer>${base}/idp</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${user}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${answering(` InResponseTo="${inResponseTo}"`)} Recipient="${escape(acs)}" NotOnOrAfter="${at(5)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-1)}" NotOnOrAfter="${at(5)}"><saml:AudienceRestriction><saml:Audience>${escape(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attribute('email', [account.email])}${attribute('groups', account.groups)}</saml:AttributeStatement></saml:Assertion>`;
    const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${escape(acs)}"${answering(` InResponseTo="${inResponseTo}"`)}><saml:Issuer>${base}/idp</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    if (mode === 'unsigned') return xml;
    const keys = mode === 'foreign-key' ? foreign : own;
    return sign(xml, assertionId, 'Assertion', keys.key, keys.cert);
  }

  return {
    url: base,
    metadataUrl: `${base}/metadata`,
    metadataXml,
    tamper: (next) => (mode = next),
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
