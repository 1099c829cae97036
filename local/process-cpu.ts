import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU times in these ticks (100 on every mainstream build). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, in ms) a process has used so far, from /proc/<pid>/stat; undefined where
 * there is no /proc (macOS, Windows) or the process is gone. The benchmarks read it before and after
 * a run: on a shared machine, CPU time per unit of work moves far less than wall-clock rates do.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
}
