// The bundled documents in generated/bundled/, parsed once, with an Ajv (JSON Schema
// 2020-12, formats on) that validates values against their schemas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const ROOT = join(import.meta.dirname, '../..');

export interface Api {
  name: string;
  slug: string;
  root: string;
  family: 'resource-manager' | 'business-central';
  bundle: string;
}

export function apis(): Api[] {
  const config = parse(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8'));
  return Object.entries<any>(config.apis).map(([name, { root, output }]) => ({
    name,
    slug: name.replace(/@/g, '-'),
    root,
    family: root.includes('/resource-manager/') ? 'resource-manager' : 'business-central',
    bundle: join(ROOT, output),
  }));
}

export const bundled = (api: Api): any => parse(readFileSync(api.bundle, 'utf8'));
export const bundleOf = (name: string): any => bundled(apis().find((api) => api.name === name)!);

/** A validator for schemas of one bundled document (its components are addressable). */
export function validatorFor(document: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components ?? {} });
  return (schema: any, value: unknown) => {
    const withRefs = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    const validate = ajv.compile(withRefs);
    const ok = validate(value) as boolean;
    return { ok, errors: ajv.errorsText(validate.errors) };
  };
}

/** Follows a local `$ref` inside a bundled document. */
export function deref(document: any, node: any): any {
  while (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    node = node.$ref
      .slice(2)
      .split('/')
      .map((part: string) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((at: any, key: string) => at?.[key], document);
  }
  return node;
}
