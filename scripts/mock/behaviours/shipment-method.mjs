// createShipmentMethod: 201 with the fields sent (`code`, `displayName`), a fresh GUID
// `id` and the current `lastModifiedDateTime`, both assigned by the service (read-only).
import { randomUUID } from 'node:crypto';
import { answer } from '../errors.mjs';

export const operationId = 'createShipmentMethod';

export function respond({ body, state, params }) {
  const { id: _id, lastModifiedDateTime: _at, ...sent } = body;
  const created = { id: randomUUID(), ...sent, lastModifiedDateTime: new Date().toISOString() };
  state.shipmentMethods.set(`${params.company_id}|${created.id}`, created);
  return answer(201, created);
}
