// Location_ListCachedImages is served by the paging convention (conventions/paging.mjs).
// What is particular to it: the mock's list holds a few images besides those of the
// spec's examples, so that the list spans 3 pages of the convention's page size.
export const operationId = 'Location_ListCachedImages';

export const extraItems = [
  { image: 'alpine:3.20', osType: 'Linux' },
  { image: 'nanoserver:ltsc2022', osType: 'Windows' },
  { image: 'busybox:1.36', osType: 'Linux' },
];
