import { loadHighwayGraph } from '#shared/geo/highway-graph.ts';
import { syntheticCatalogVersion } from '#shared/geo/synthetic-catalog.ts';
import { stateAt } from '#shared/geo/us-states.ts';

/**
 * A function entry for the bundle tests: what the planning functions read from the geographic data
 * files, answered from a bundle (where the files are copies beside it) as from source.
 */
export const handler = async () => ({
  graphVersion: loadHighwayGraph().version,
  nodes: loadHighwayGraph().nodes.length,
  catalogVersion: syntheticCatalogVersion(),
  denton: stateAt(33.2148, -97.1331),
  southOfArdmore: stateAt(34.3339, -97.16283),
});
