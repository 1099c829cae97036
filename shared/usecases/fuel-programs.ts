import type { FuelProgram } from '../domain/fuel-program/program.ts';

/** Where plans and station queries read a fleet's fuel card program (the fleet's item holds it). */
export interface FuelProgramSource {
  get(fleetId: string): Promise<FuelProgram>;
}
