export type FleetStatus = 'active' | 'inactive';

export interface Fleet {
  id: string;
  name: string;
  externalRef: string | null;
  contactEmail: string | null;
  timezone: string;
  status: FleetStatus;
  /** The provisioning partner; null for a company's own fleet. */
  partnerId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FleetChanges {
  name?: string;
  externalRef?: string | null;
  contactEmail?: string | null;
}
