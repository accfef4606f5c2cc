// The game's rules as the server said them (rules.js fills this from GET /api/rules before the
// page's components start): the modes with their table sizes and default counters, the kinds of
// job, and the fields' limits. Nothing here is a rule of the page's own.
export const RULES = { modes: {}, first: null, jobs: [] };
export const LIMITS = { rounds: [1, 1], skills: [0, 0], birds: 26 };

// a mode's table sizes, largest first (a Party board is asked about 4 players, then 3)
export const tableSizes = (mode) => [...((RULES.modes[mode] || {}).players || [])].sort((a, b) => b - a);

// a new mission's mode, and a mode's default rounds and skill counters
export const firstMode = () => RULES.first;
export const modeDefaults = (mode) => RULES.modes[mode] || { rounds: 1, skills: 0, players: [] };
