import type { Adjacency, HighwayGraph } from './highway-graph.ts';

/** A node where the search may start or end, with the cost of getting there from outside the graph. */
export interface Terminal {
  node: number;
  cost: number;
}

/**
 * What the search needs besides the graph. Costs are in any unit, as long as they agree. Terminals
 * may carry more than node and cost (how the end joins the graph): the path hands back the very
 * terminal objects it chose.
 */
export interface PathSearch<S extends Terminal = Terminal, T extends Terminal = Terminal> {
  sources: readonly S[];
  targets: readonly T[];
  edgeCost: (step: Adjacency) => number;
  /** Lower bound on the cost from a node to the goal (0 turns A* into Dijkstra). */
  heuristic: (node: number) => number;
  /** Called once per settled node; throws to abandon the search (time budget). */
  onExpand?: () => void;
}

/** The cheapest source → target path: its total cost (terminal costs included) and its steps. */
export interface PathFound<S extends Terminal = Terminal, T extends Terminal = Terminal> {
  cost: number;
  source: S;
  target: T;
  steps: Adjacency[];
}

const GOAL = -1;

/**
 * A* from several sources to several targets at once. The targets are joined to one virtual goal
 * by their terminal cost, so "which of the k nearest nodes to leave and join the network at" is
 * decided by the search itself. Optimal when the heuristic is consistent: with edge costs no
 * smaller than great-circle distance (a data-file invariant) the great-circle heuristic is.
 */
export function findCheapestPath<S extends Terminal, T extends Terminal>(
  graph: HighwayGraph,
  search: PathSearch<S, T>,
): PathFound<S, T> | undefined {
  const size = graph.nodes.length;
  const best = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
  const via = new Array<Adjacency | undefined>(size);
  const origin = new Array<S | undefined>(size);
  const settled = new Uint8Array(size);
  const targetCost = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
  for (const target of search.targets)
    targetCost[target.node] = Math.min(targetCost[target.node] ?? 0, target.cost);
  const open = new MinHeap();

  for (const source of search.sources) {
    if (source.cost < (best[source.node] ?? Number.POSITIVE_INFINITY)) {
      best[source.node] = source.cost;
      origin[source.node] = source;
      via[source.node] = undefined;
      open.push(source.cost + search.heuristic(source.node), source.node, source.cost);
    }
  }

  let goalCost = Number.POSITIVE_INFINITY;
  let goalNode = GOAL;
  for (let entry = open.pop(); entry; entry = open.pop()) {
    if (entry.node === GOAL) return trace(graph, goalNode, goalCost, via, origin, search.targets);
    if (settled[entry.node] || entry.cost > (best[entry.node] ?? 0)) continue;
    settled[entry.node] = 1;
    search.onExpand?.();

    const exitCost = entry.cost + (targetCost[entry.node] ?? Number.POSITIVE_INFINITY);
    if (exitCost < goalCost) {
      goalCost = exitCost;
      goalNode = entry.node;
      open.push(exitCost, GOAL, exitCost);
    }
    for (const step of graph.adjacency[entry.node] ?? []) {
      if (settled[step.to]) continue;
      const cost = entry.cost + search.edgeCost(step);
      if (cost < (best[step.to] ?? Number.POSITIVE_INFINITY)) {
        best[step.to] = cost;
        via[step.to] = step;
        origin[step.to] = origin[entry.node];
        open.push(cost + search.heuristic(step.to), step.to, cost);
      }
    }
  }
  return undefined;
}

function trace<S extends Terminal, T extends Terminal>(
  graph: HighwayGraph,
  goalNode: number,
  cost: number,
  via: readonly (Adjacency | undefined)[],
  origin: readonly (S | undefined)[],
  targets: readonly T[],
): PathFound<S, T> {
  const steps: Adjacency[] = [];
  for (let step = via[goalNode]; step; step = via[step.reversed ? step.edge.to : step.edge.from]) {
    steps.push(step);
  }
  steps.reverse();
  const source = origin[goalNode];
  const target = targets.reduce<T | undefined>(
    (chosen, candidate) =>
      candidate.node === goalNode && (!chosen || candidate.cost < chosen.cost) ? candidate : chosen,
    undefined,
  );
  if (!source || !target) throw new Error(`path trace lost its terminals at ${graph.nodes[goalNode]?.id}`);
  return { cost, source, target, steps };
}

interface HeapEntry {
  priority: number;
  node: number;
  cost: number;
}

/** Binary min-heap on priority; stale entries are skipped by the caller (lazy deletion). */
class MinHeap {
  private readonly items: HeapEntry[] = [];

  push(priority: number, node: number, cost: number): void {
    const items = this.items;
    items.push({ priority, node, cost });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = items[parent] as HeapEntry;
      const current = items[i] as HeapEntry;
      if (up.priority <= current.priority) break;
      items[parent] = current;
      items[i] = up;
      i = parent;
    }
  }

  pop(): HeapEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (
          left < items.length &&
          (items[left] as HeapEntry).priority < (items[smallest] as HeapEntry).priority
        ) {
          smallest = left;
        }
        if (
          right < items.length &&
          (items[right] as HeapEntry).priority < (items[smallest] as HeapEntry).priority
        ) {
          smallest = right;
        }
        if (smallest === i) break;
        const swap = items[i] as HeapEntry;
        items[i] = items[smallest] as HeapEntry;
        items[smallest] = swap;
        i = smallest;
      }
    }
    return top;
  }
}
