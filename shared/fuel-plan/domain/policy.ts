/**
 * The fuel plan's fixed choices. Each is a product decision with its reason; docs/architecture.md's
 * "The fuel plan" section repeats them.
 */

/**
 * The purchase lattice, in gallons. Every purchase is the fuel its detour burns plus a whole number
 * of these units, so fuel on the route always sits on one lattice whatever stops are made, which is
 * what lets the optimizer be exact. 0.1 gal is the precision plans are shown in (and finer than any
 * pump or gauge a driver reads); a 300-gal tank is 3,000 levels.
 */
export const GALLON_UNIT = 0.1;

/**
 * Added to the objective price of a station off the fleet's fuel card program (a `preferred` one;
 * under `none` no station is off it), on top of the fleet's penalty: a tenth of the $0.001
 * resolution prices carry, so it never outweighs a real price difference, but an exact tie goes
 * to the accepted stop whatever the route order (a penalty of 0 then still orders ties).
 */
export const OFF_PROGRAM_TIE_BREAK_USD = 0.0001;

/**
 * Added to a stale price per gallon in the objective only (reported costs stay the posted net
 * price). A price nobody has confirmed lately can be a week's market move or a closed pump away from
 * the truth, so a stale "cheap" price has to beat a fresh one by more than 10 cents to be chosen.
 */
export const STALE_PRICE_PENALTY_USD = 0.1;

/**
 * The fleet default en-route reserve, as a fraction of the tank: fuel never drops below it between
 * stops. 10% of a 300-gal tank is 30 gal, about 190 miles at 6.5 mpg: room for an optimistic mpg
 * estimate, headwinds or a closed station.
 */
export const DEFAULT_RESERVE_FRACTION = 0.1;

/**
 * The default minimum purchase per stop, in gallons. A stop costs a driver 15 to 20 minutes of
 * hours-of-service time; fewer than 20 gallons is not worth that.
 */
export const DEFAULT_MIN_PURCHASE_GALLONS = 20;

/**
 * Slack, in gallons, on every feasibility comparison. Fuel levels are sums of floating-point
 * quotients (miles / mpg); 1e-9 gal absorbs their rounding so a plan that lands exactly on a limit
 * is not refused, and is far below any quantity a plan reports.
 */
export const FUEL_TOLERANCE_GALLONS = 1e-9;
