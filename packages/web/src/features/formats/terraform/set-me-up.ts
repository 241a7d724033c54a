import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/**
 * Terraform: `terraform login` to the host, modules and providers addressed through the registry
 * namespace `{repo}__{namespace}`, and their archives deployed at the paths the registry reads.
 */
export function terraformSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  const host = new URL(baseUrl).host;
  const files = `${baseUrl}/artifactory/${repoKey}`;
  return [
    { title: 'Sign in', language: 'shell', code: `terraform login ${host}` },
    {
      title: 'Use a module',
      language: 'hcl',
      code: `module "vpc" {\n  source  = "${host}/${repoKey}__<namespace>/<name>/<system>"\n  version = "1.0.0"\n}`,
    },
    {
      title: 'Use a provider',
      language: 'hcl',
      code: `terraform {\n  required_providers {\n    <type> = {\n      source  = "${host}/${repoKey}__<namespace>/<type>"\n      version = "1.0.0"\n    }\n  }\n}`,
    },
    {
      title: 'Deploy a module',
      language: 'shell',
      code: `curl -u ${user}:${secret} -T vpc-1.0.0.zip "${files}/modules/<namespace>/vpc/<system>/1.0.0.zip"`,
    },
    {
      title: 'Deploy a provider package',
      language: 'shell',
      code: `curl -u ${user}:${secret} -T terraform-provider-<type>_1.0.0_linux_amd64.zip "${files}/providers/<namespace>/<type>/1.0.0/terraform-provider-<type>_1.0.0_linux_amd64.zip"`,
    },
  ];
}
