// Server URLs that work when copied. A document's server is a bare variable
// (`{base_url}`, `{api_prefix}`: the source gives only the placeholder), which Redoc
// resolves against the page's own address (`http://127.0.0.1:8080/{base_url}`). What the
// docs render instead:
//   - the endpoint box shows the mock's URL for the document (servers[0] with its
//     variables at their defaults), marked as the mock;
//   - every operation, and the overview, say the family's template with each variable
//     explained (from the document's own variable descriptions) beside that URL.
import { mockUrlOf } from './samples.mjs';

/** "`{api_prefix}`: Host plus `/api/v2.0`. …; the mock: `http://…`" as Markdown, or '' when the document has no server. */
export function serverNote(document) {
  const server = document.servers?.[0];
  if (typeof server?.url !== 'string') return '';
  const variables = Object.entries(server.variables ?? {}).map(([name, variable]) => `\`{${name}}\`: ${variable.description ?? 'a server variable'}`.trim());
  const mock = mockUrlOf(document);
  const lines = [`**Server.** Requests go to \`${server.url}\` followed by the path.${variables.length ? ` ${variables.join(' ')}` : ''}`];
  if (mock)
    lines.push(
      `**On the workspace's mock:** \`${mock}\` (\`npm run mock\`); \`npm run docs:serve\` also serves the mock at this page's own address, where "Try it" sends.`,
    );
  return lines.join('\n\n');
}

/** The document with a working server URL and the template explained on the overview and on every operation. */
export function withServers(document, operations) {
  const note = serverNote(document);
  if (!note) return document;
  const mock = mockUrlOf(document);
  if (mock)
    document.servers = [{ url: mock, description: `The workspace's mock (npm run mock). The service's own address is \`${document.servers[0].url}\`.` }];
  document.info = { ...document.info, description: `${document.info?.description ?? ''}\n\n${note}`.trim() };
  for (const { operation } of operations) operation.description = `${operation.description ?? ''}\n\n${note}`.trim();
  return document;
}
