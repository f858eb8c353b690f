import { RedisScript } from '@app/shared';

/*
 * How one search key's profile ids are kept in Redis (issue 41 item 5: at most 1 KB per
 * profile). A key's set `<p>:kx:{<client>:<key>}` (its base) holds the ids themselves while
 * it has at most SEARCH_INDEX_SET_SPLIT (500) of them: an intset, 4 bytes an id. Past that it
 * is split by profile id range: the ids of the range [hi·2^s, (hi+1)·2^s) go into the part
 * `<base>:<hi>` as their offset in the range (id − hi·2^s), and the base holds the flag −s
 * and the numbers hi of its parts. The range 2^s is chosen at the split so that a part holds
 * about half the limit (250 ids) at the key's density then, so each part stays an intset
 * (Redis's small-set encoding up to set-max-intset-entries, 512 by default) of 2- or 4-byte
 * offsets, instead of one hash table of 40-50 bytes a member. A part that passes the limit
 * later (the key grew denser) has its key split again at half the range or less.
 * Every part shares the base's hash tag, so the scripts below take one key and its parts on
 * one node of a cluster. A base without a flag is read as plain ids: the sets of the
 * encoding before this one are read as they are and split at their next addition.
 */

/** The flags a split base may hold: −s for ranges of 2^s ids, s from 1 to 30. */
const FLAG_ARGS = Array.from({ length: 30 }, (_, n) => -(n + 1)).join(', ');

/** Lua shared by the scripts: the base's range (nil: plain ids), adding, reading. */
const COMMON = `
local function shiftOf(key)
  local found = redis.call('SMISMEMBER', key, ${FLAG_ARGS})
  for i = 1, #found do
    if found[i] == 1 then return i end
  end
  return nil
end

-- Adds ids[from..to] to the parts of a split base; true when a part passed the limit.
local function addParts(key, shift, ids, from, to, limit)
  local size = 2 ^ shift
  local parts, order = {}, {}
  for j = from, to do
    local id = tonumber(ids[j])
    local hi = math.floor(id / size)
    local part = parts[hi]
    if not part then
      part = {}
      parts[hi] = part
      order[#order + 1] = hi
    end
    part[#part + 1] = id - hi * size
  end
  local over = false
  for _, hi in ipairs(order) do
    redis.call('SADD', key, hi)
    local part, offsets = key .. ':' .. hi, parts[hi]
    for f = 1, #offsets, 1000 do
      redis.call('SADD', part, unpack(offsets, f, math.min(f + 999, #offsets)))
    end
    if redis.call('SCARD', part) > limit then over = true end
  end
  return over
end

-- Every id of a split base, its parts deleted with it when drop is true.
local function idsOf(key, shift, drop)
  local size, ids = 2 ^ shift, {}
  for _, hi in ipairs(redis.call('SMEMBERS', key)) do
    local n = tonumber(hi)
    if n >= 0 then
      local part = key .. ':' .. hi
      for _, offset in ipairs(redis.call('SMEMBERS', part)) do
        ids[#ids + 1] = n * size + tonumber(offset)
      end
      if drop then redis.call('DEL', part) end
    end
  end
  return ids
end

-- Writes ids as a split base: ranges that hold about limit / 2 of them at their density
-- (the smallest range 2^s, s <= most, that does), so a part has room to grow.
local function split(key, ids, most, limit)
  local top = 1
  for j = 1, #ids do
    local id = tonumber(ids[j])
    if id > top then top = id end
  end
  local shift = 1
  while shift < most and (2 ^ shift) * #ids < math.ceil(limit / 2) * top do
    shift = shift + 1
  end
  redis.call('DEL', key)
  redis.call('SADD', key, -shift)
  if addParts(key, shift, ids, 1, #ids, limit) and shift > 1 then
    split(key, idsOf(key, shift, true), shift - 1, limit)
  end
end
`;

/**
 * Adds ids to the sets of one slot. KEYS the bases; ARGV[1] the split limit, then per base
 * its id count and its ids. Atomic per call like a MULTI, and idempotent.
 */
export const ADD_IDS = new RedisScript(
  `${COMMON}
local limit = tonumber(ARGV[1])
local at = 2
for i = 1, #KEYS do
  local key, n = KEYS[i], tonumber(ARGV[at])
  local shift = shiftOf(key)
  if shift then
    if addParts(key, shift, ARGV, at + 1, at + n, limit) and shift > 1 then
      split(key, idsOf(key, shift, true), shift - 1, limit)
    end
  elseif redis.call('SCARD', key) + n <= limit then
    for from = at + 1, at + n, 1000 do
      redis.call('SADD', key, unpack(ARGV, from, math.min(from + 999, at + n)))
    end
  else
    local ids = redis.call('SMEMBERS', key)
    for j = at + 1, at + n do ids[#ids + 1] = ARGV[j] end
    split(key, ids, 30, limit)
  end
  at = at + n + 1
end
return #KEYS`,
  null,
);

/** Removes ids (ARGV) from one key (KEYS[1]): a part left empty leaves its base. */
export const REMOVE_IDS = new RedisScript(
  `${COMMON}
local key = KEYS[1]
local shift = shiftOf(key)
if not shift then return redis.call('SREM', key, unpack(ARGV)) end
local size = 2 ^ shift
for _, value in ipairs(ARGV) do
  local id = tonumber(value)
  local hi = math.floor(id / size)
  local part = key .. ':' .. hi
  redis.call('SREM', part, id - hi * size)
  if redis.call('EXISTS', part) == 0 then redis.call('SREM', key, hi) end
end
if redis.call('SCARD', key) == 1 then redis.call('DEL', key) end
return 1`,
  1,
);

/**
 * The ids held by at least one key of every group (an AND of ORs), as integers. KEYS the
 * bases, the groups' keys one group after the other; ARGV each group's number of keys.
 * With a last key more than the groups take (one Redis: any keys together), that key is
 * the index's `built` marker: null while it is missing, in the same round trip.
 * The smallest group (a plain set's size; a split key's parts count as 256 ids each, so
 * after any plain set) is read whole, and the other groups only asked, part by part, which
 * of those candidates they hold (SMISMEMBER): a partial name's runs shared by most
 * profiles ("fir") are never read, and the api receives only the answer.
 */
export const QUERY_IDS = new RedisScript(
  `${COMMON}
local at = 1
for g = 1, #ARGV do at = at + tonumber(ARGV[g]) end
if at <= #KEYS and redis.call('EXISTS', KEYS[at]) == 0 then return false end
local groups = {}
at = 1
for g = 1, #ARGV do
  local group = {size = 0, keys = {}}
  for i = at, at + tonumber(ARGV[g]) - 1 do
    -- A split base holds its flag and at least one part: a set of one id or none is plain.
    local count = redis.call('SCARD', KEYS[i])
    local shift = count > 1 and shiftOf(KEYS[i]) or 0
    local key = {name = KEYS[i], shift = shift}
    group.keys[#group.keys + 1] = key
    if shift == 0 then group.size = group.size + count
    else group.size = group.size + (count - 1) * 256 end
  end
  at = at + tonumber(ARGV[g])
  groups[#groups + 1] = group
end
table.sort(groups, function(a, b) return a.size < b.size end)

-- The smallest group's ids, each once (a key's own ids are distinct: no check for one key).
local ids, seen = {}, #groups[1].keys > 1 and {} or nil
local function hold(id)
  if seen then
    if seen[id] then return end
    seen[id] = true
  end
  ids[#ids + 1] = id
end
for _, key in ipairs(groups[1].keys) do
  if key.shift == 0 then
    for _, id in ipairs(redis.call('SMEMBERS', key.name)) do hold(tonumber(id)) end
  else
    for _, id in ipairs(idsOf(key.name, key.shift, false)) do hold(id) end
  end
end

-- Marks found[position of a member] for the members the set holds, a batch at a time
-- (positions nil: the members are ids themselves, in order).
local function ask(set, members, positions, found)
  for from = 1, #members, 1000 do
    local answers = redis.call('SMISMEMBER', set, unpack(members, from, math.min(from + 999, #members)))
    for j = 1, #answers do
      if answers[j] == 1 then found[positions and positions[from + j - 1] or from + j - 1] = true end
    end
  end
end

for g = 2, #groups do
  if #ids == 0 then break end
  local found = {}
  for _, key in ipairs(groups[g].keys) do
    if key.shift == 0 then
      ask(key.name, ids, nil, found)
    else
      local size = 2 ^ key.shift
      local parts, order = {}, {}
      for j = 1, #ids do
        local hi = math.floor(ids[j] / size)
        local part = parts[hi]
        if not part then
          part = {offsets = {}, positions = {}}
          parts[hi] = part
          order[#order + 1] = hi
        end
        part.offsets[#part.offsets + 1] = ids[j] - hi * size
        part.positions[#part.positions + 1] = j
      end
      for _, hi in ipairs(order) do
        ask(key.name .. ':' .. hi, parts[hi].offsets, parts[hi].positions, found)
      end
    end
  end
  local kept = {}
  for j = 1, #ids do
    if found[j] then kept[#kept + 1] = ids[j] end
  end
  ids = kept
end
return ids`,
  null,
);

/**
 * On a cluster, where a group's keys are in slots of their own: the ids in every group,
 * given each group's QUERY_IDS answers (one per slot of its keys), ascending.
 */
export function idsInEveryGroup(groups: number[][][]): number[] {
  const unions = groups.map((answers) =>
    answers.length === 1 ? answers[0] : [...new Set(answers.flat())],
  );
  unions.sort((a, b) => a.length - b.length);
  let ids = unions[0] ?? [];
  for (const other of unions.slice(1)) {
    if (!ids.length) break;
    const held = new Set(other);
    ids = ids.filter((id) => held.has(id));
  }
  return ids.sort((a, b) => a - b);
}
