// Location_ListCachedImages: a list that spans several pages. Each page but the last
// carries a nextLink built from the origin the request came in on (its Host) and the
// path as sent, so a client that follows links on its own origin only reads to the end
// on any port. The source shows no page size and no paging parameter: the mock's pages
// hold PAGE_SIZE entries and the link carries `$skiptoken=page<n>`, as the spec's
// FirstPageWithNextLink example does.
import { responseExamples } from '../documents.mjs';
import { answer, errorAnswer } from '../errors.mjs';

export const operationId = 'Location_ListCachedImages';
export const PAGE_SIZE = 2;

// The entries of the spec's examples, then a few more so that the list spans 3 pages.
const EXTRA = [
  { image: 'alpine:3.20', osType: 'Linux' },
  { image: 'nanoserver:ltsc2022', osType: 'Windows' },
  { image: 'busybox:1.36', osType: 'Linux' },
];

export function imagesOf(document) {
  const seen = new Map();
  for (const page of Object.values(responseExamples(document, operationId, '200'))) {
    for (const entry of page?.value ?? []) if (entry?.image && !seen.has(entry.image)) seen.set(entry.image, entry);
  }
  for (const entry of EXTRA) if (!seen.has(entry.image)) seen.set(entry.image, entry);
  return [...seen.values()];
}

export function respond({ doc, origin, rawPath, query }) {
  const images = (doc.cachedImages ??= imagesOf(doc.document));
  const pages = Math.max(1, Math.ceil(images.length / PAGE_SIZE));
  const token = query.$skiptoken;
  const page = token === undefined ? 1 : /^page([1-9]\d{0,5})$/.exec(String(token)) ? Number(String(token).slice(4)) : NaN;
  if (!(page >= 1 && page <= pages)) {
    return errorAnswer(400, 'InvalidSkipToken', `$skiptoken ${JSON.stringify(String(token))} is not a page of this list (page1 to page${pages}).`, { target: '$skiptoken' });
  }
  const value = images.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  if (page === pages) return answer(200, { value });
  const next = new URLSearchParams({ 'api-version': doc.version, $skiptoken: `page${page + 1}` });
  return answer(200, { value, nextLink: `${origin}${rawPath}?${next.toString().replace('%24skiptoken', '$skiptoken')}` });
}
