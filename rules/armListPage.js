// House rule: a resource-management list (a GET whose 200 body has a `value` array) is a
// `nextLink` page: the body has a `nextLink` string and the operation declares
// `x-ms-pageable: { nextLinkName: nextLink }`. The clients' listAll/listPages and the
// mock's paging key on that shape; a list without it silently returns the first page only.
import { armOperations } from '../model/arm.mjs';
import { hasType, propertiesOf, responseSchemaOf } from '../model/schemas.mjs';

export default function armListPage(document) {
  const results = [];
  for (const [pathKey, method, operation] of armOperations(document)) {
    if (method !== 'get') continue;
    const properties = propertiesOf(responseSchemaOf(operation, '200'));
    if (!hasType(properties.value, 'array')) continue;
    const at = ['paths', pathKey, method];
    if (!hasType(properties.nextLink, 'string')) {
      results.push({
        message: `GET ${pathKey} lists \`value\` without a \`nextLink\` string in its 200 body: a resource-management list is a nextLink page.`,
        path: [...at, 'responses', '200'],
      });
    }
    if (operation['x-ms-pageable']?.nextLinkName !== 'nextLink') {
      results.push({
        message: `GET ${pathKey} lists \`value\`: declare \`x-ms-pageable: { nextLinkName: nextLink }\` so the clients and the mock page it.`,
        path: operation['x-ms-pageable'] ? [...at, 'x-ms-pageable'] : at,
      });
    }
  }
  return results;
}
