// House rule: a document's overview (`info.description`) has a paragraph saying what the
// source does not show ("Not shown in the source: …", "Also not shown: …"). The docs open
// on that overview, so a reader learns the limits of the document before its operations
// (test/docs/pages.test.ts reads that paragraph on the page; test/spec/gaps.test.ts wants
// an info-level x-source-gap said in words, which this paragraph is).
const SAYS = /not shown/i;

export default function infoNotShown(document) {
  const description = document?.info?.description;
  if (typeof description === 'string' && description.split(/\n\s*\n/).some((paragraph) => SAYS.test(paragraph))) return [];
  return [
    {
      message:
        'info.description has no paragraph saying what the source does not show: add one ("Not shown in the source: …"), which the docs show on the overview.',
      path: typeof description === 'string' ? ['info', 'description'] : ['info'],
    },
  ];
}
