"""Lua scripts of the Redis store, one per operation that must be atomic.

Why scripts: a script runs atomically on the server and costs one round
trip (EVALSHA), so compare-and-set, the log append and the expiry refresh
cannot be torn apart by a crash or a concurrent save. Redis does not roll
back a script that fails half-way, so every script checks everything
(key types, versions) *before* its first write: a script either returns a
refusal having written nothing, or writes all.
Out of memory (``maxmemory`` with ``noeviction``) is checked by Redis at a
script's first write only, so each script that adds data writes first with
a command Redis refuses then (SET, HINCRBY), never with DEL or RENAME.

Every key a script touches is passed in KEYS (Redis Cluster routes a
script by its KEYS and refuses any other key; a single server would let
an undeclared key through, so ``tests/store/test_redis_store.py`` checks
the scripts' texts), and all keys of one call share a hash tag, so they
live in one slot.

Reply codes (first element of the returned array):
    1 ok;  2 conflict (+ the stored envelope (SAVE) or the bound game id (CREATE));
    3 missing;  4 wrong type (+ key, type);  5 id collision;
    6 other key (CREATE: the binding names a game whose state key is not
      KEYS[4]; + that game id: call again declaring its state key);
    7 done (CLAIM: the delivery was handled already).
SAVE and CREATE answer ok with the log's length and digest after the write
(``{1, length, digest}``: the receipt of the save, ``core.store.Receipt``).

The digest key (``...:game:N:digest``, ``"<log length>:<sha1 hex>"``) keeps
the chained digest of the log (``core.store.log_digest``) up to date, one
``redis.sha1hex`` per new entry; a log without one (written before it
existed) is digested whole once.
"""

from __future__ import annotations

OK, CONFLICT, MISSING, WRONG_TYPE, COLLISION, OTHER_KEY, DONE = 1, 2, 3, 4, 5, 6, 7

# Shared helper: the type of a key, as a plain string.
_TYPE = """
local function ktype(k) return redis.call('TYPE', k)['ok'] end
"""

# Shared helper: chain the digest d over entries t[i..j] (core.store.log_digest).
_CHAIN = """
local function chain(d, t, i, j)
  for n = i, j do d = redis.sha1hex(d .. '\\n' .. t[n]) end
  return d
end
-- The digest of the first n entries of log key k, from the digest key dk when it is current.
local function digest_upto(k, dk, n)
  local held = redis.call('GET', dk)
  if held then
    local len, hex = string.match(held, '^(%d+):(%x*)$')
    if len and tonumber(len) == n then return hex end
  end
  if n == 0 then return '' end
  return chain('', redis.call('LRANGE', k, 0, n - 1), 1, n)
end
"""

SAVE = (
    _TYPE
    + _CHAIN
    + """
-- KEYS: state, log, chat binding, log digest
-- ARGV: expected version header, new envelope, ttl ms (0 = none), game id, log entries...
local st = ktype(KEYS[1])
if st == 'none' then return {3} end
if st ~= 'string' then return {4, KEYS[1], st} end
local lt = ktype(KEYS[2])
if lt ~= 'none' and lt ~= 'list' then return {4, KEYS[2], lt} end
local bt = ktype(KEYS[3])
if bt ~= 'none' and bt ~= 'string' then return {4, KEYS[3], bt} end
local dt = ktype(KEYS[4])
if dt ~= 'none' and dt ~= 'string' then return {4, KEYS[4], dt} end
local cur = redis.call('GET', KEYS[1])
local hlen = string.len(ARGV[1])
if string.sub(cur, 1, hlen) ~= ARGV[1] then
  if cur == ARGV[2] then  -- our own save, re-sent after a lost reply
    local n = redis.call('LLEN', KEYS[2])
    return {1, n, digest_upto(KEYS[2], KEYS[4], n)}
  end
  return {2, cur}  -- the whole stored envelope: the caller recomputes from it without a GET
end
local before = redis.call('LLEN', KEYS[2])
local d = digest_upto(KEYS[2], KEYS[4], before)
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[2])
end
if #ARGV > 4 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 5)) end
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) else redis.call('PERSIST', KEYS[2]) end
if bt == 'string' and redis.call('GET', KEYS[3]) == ARGV[4] then
  if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) else redis.call('PERSIST', KEYS[3]) end
end
local n = before + #ARGV - 4
d = chain(d, ARGV, 5, #ARGV)
if ttl > 0 then
  redis.call('SET', KEYS[4], n .. ':' .. d, 'PX', ttl)
else
  redis.call('SET', KEYS[4], n .. ':' .. d)
end
return {1, n, d}
"""
)

CREATE = (
    _TYPE
    + _CHAIN
    + """
-- KEYS: chat binding, state, log, state of the game the binding names (a guess:
--       when the binding names another game, nothing is written and {6, bound} tells
--       the caller which key to declare), log digest of the new game
-- ARGV: game id, envelope, ttl ms (0 = none), replace ('1'/'0'),
--       state key prefix of this chat's games, log entries...
local bt = ktype(KEYS[1])
if bt ~= 'none' and bt ~= 'string' then return {4, KEYS[1], bt} end
local lt = ktype(KEYS[3])
if lt ~= 'none' and lt ~= 'list' then return {4, KEYS[3], lt} end
local bound = false
if bt == 'string' then bound = redis.call('GET', KEYS[1]) end
if bound == ARGV[1] then  -- our own create, retried after a lost reply
  local n = redis.call('LLEN', KEYS[3])
  return {1, n, digest_upto(KEYS[3], KEYS[5], n)}
end
local dt = ktype(KEYS[5])
if dt ~= 'none' and dt ~= 'string' then return {4, KEYS[5], dt} end
if bound and ARGV[4] ~= '1' then
  -- the bound game may have gone (deleted by hand): then the chat is free
  local nonce = string.match(bound, '#(%x+)$')
  if nonce then
    if ARGV[5] .. nonce .. ':state' ~= KEYS[4] then return {6, bound} end
    if redis.call('EXISTS', KEYS[4]) == 1 then return {2, bound} end
  end
end
if redis.call('EXISTS', KEYS[2]) == 1 then return {5} end
local ttl = tonumber(ARGV[3])
-- The SET of the state comes first: Redis checks maxmemory at a script's first
-- write only, and DEL (which it lets through) would have opened the door to all.
if ttl > 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ttl)
else
  redis.call('SET', KEYS[2], ARGV[2])
end
redis.call('DEL', KEYS[3])
if #ARGV > 5 then redis.call('RPUSH', KEYS[3], unpack(ARGV, 6)) end
local n = #ARGV - 5
local d = chain('', ARGV, 6, #ARGV)
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
  if #ARGV > 5 then redis.call('PEXPIRE', KEYS[3], ttl) end
  redis.call('SET', KEYS[5], n .. ':' .. d, 'PX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[5], n .. ':' .. d)
end
return {1, n, d}
"""
)

BIND = (
    _TYPE
    + """
-- KEYS: chat binding, state;  ARGV: game id
local bt = ktype(KEYS[1])
if bt ~= 'none' and bt ~= 'string' then return {4, KEYS[1], bt} end
local ttl = redis.call('PTTL', KEYS[2])
if ttl == -2 then return {3} end
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
return {1}
"""
)

UNBIND_IF = (
    _TYPE
    + """
-- KEYS: chat binding (or a delivery's claim);  ARGV: game id (the claim's owner)
local bt = ktype(KEYS[1])
if bt == 'none' then return {3} end
if bt ~= 'string' then return {4, KEYS[1], bt} end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {2} end
redis.call('DEL', KEYS[1])
return {1}
"""
)

CLAIM = (
    _TYPE
    + """
-- KEYS: a delivery's claim;  ARGV: owner, lease (ms), the done marker
local t = ktype(KEYS[1])
if t ~= 'none' and t ~= 'string' then return {4, KEYS[1], t} end
local held = redis.call('GET', KEYS[1])
if held == ARGV[3] then return {7} end
if held and held ~= ARGV[1] then return {2} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1}
"""
)

SWAP_SETTING = (
    _TYPE
    + """
-- KEYS: a chat's settings;  ARGV: name, the JSON it must hold ('' : absent), the JSON to set ('' : remove)
local t = ktype(KEYS[1])
if t ~= 'none' and t ~= 'hash' then return {4, KEYS[1], t} end
local held = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '' then
  if held then return {2} end
elseif held ~= ARGV[2] then return {2} end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return {1}
"""
)

DELETE = (
    _TYPE
    + """
-- KEYS: state, log, chat binding, log digest;  ARGV: game id
local existed = redis.call('EXISTS', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[4])
if ktype(KEYS[3]) == 'string' and redis.call('GET', KEYS[3]) == ARGV[1] then
  redis.call('DEL', KEYS[3])
end
if existed == 1 then return {1} end
return {3}
"""
)

QUARANTINE = (
    _TYPE
    + """
-- KEYS: chat binding, then pairs (key, quarantine key)
-- ARGV: game id whose binding is to be cleared ('' for none), quarantine ttl ms
-- Renames each existing key of a pair, then clears the binding if it names the game.
local moved = 0
for i = 2, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('RENAME', KEYS[i], KEYS[i + 1])
    redis.call('PEXPIRE', KEYS[i + 1], ARGV[2])
    moved = moved + 1
  end
end
if ARGV[1] ~= '' and ktype(KEYS[1]) == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return {1, moved}
"""
)

CONFIRM = (
    _TYPE
    + _CHAIN
    + """
-- KEYS: state, log, log digest;  ARGV: log length, digest (a save's receipt),
--       and optionally a version header (a reader's: is the state still at it?)
-- {1, length, digest, at}: the log still starts with what it held right after
-- that save; and one write (the digest key rewritten as it is), so that a WAIT
-- sent after this script waits for everything before it, that save included;
-- length and digest of the whole log now, at = 1 when the state starts with the
-- header given. {3}: the game is gone. {2}: its log went another way (the save was lost).
if redis.call('EXISTS', KEYS[1]) == 0 then return {3} end
local lt = ktype(KEYS[2])
if lt ~= 'none' and lt ~= 'list' then return {4, KEYS[2], lt} end
local dt = ktype(KEYS[3])
if dt ~= 'none' and dt ~= 'string' then return {4, KEYS[3], dt} end
local n = tonumber(ARGV[1])
local len = redis.call('LLEN', KEYS[2])
if len < n then return {2} end
if digest_upto(KEYS[2], KEYS[3], n) ~= ARGV[2] then return {2} end
local now = len .. ':' .. digest_upto(KEYS[2], KEYS[3], len)
local ttl = redis.call('PTTL', KEYS[1])
if dt == 'string' then
  redis.call('SET', KEYS[3], now, 'KEEPTTL')
elseif ttl > 0 then
  redis.call('SET', KEYS[3], now, 'PX', ttl)
else
  redis.call('SET', KEYS[3], now)
end
local at = 0
if ARGV[3] and string.sub(redis.call('GET', KEYS[1]), 1, string.len(ARGV[3])) == ARGV[3] then at = 1 end
return {1, len, digest_upto(KEYS[2], KEYS[3], len), at}
"""
)

INCR_STATS = (
    _TYPE
    + """
-- KEYS: stats hash;  ARGV: field, delta, field, delta...
local t = ktype(KEYS[1])
if t ~= 'none' and t ~= 'hash' then return {4, KEYS[1], t} end
local fields = {}
for i = 1, #ARGV, 2 do fields[#fields + 1] = ARGV[i] end
local cur = redis.call('HMGET', KEYS[1], unpack(fields))
for i = 1, #fields do
  if cur[i] and not string.match(cur[i], '^%-?%d+$') then return {4, KEYS[1], 'hash with a non-integer field ' .. fields[i]} end
end
local out = {}
for i = 1, #fields do
  out[i] = redis.call('HINCRBY', KEYS[1], fields[i], ARGV[2 * i])
end
return {1, out}
"""
)

ARCHIVE = (
    _TYPE
    + """
-- Keep a finished game once and count its standings (see core.store.Store.archive_game).
-- KEYS: 1 done zset (archived game ids by time), 2 records zset, 3 record string, 4 periods set,
--       5 seen zset (the standings' people by last match), 6 the game's former done marker,
--       7.. one hash per period
-- ARGV: 1 marker ttl ms, 2 keep ms (-1 forever, 0 nothing), 3 max records, 4 now ms,
--       5 game id, 6 record JSON, 7 max people, 8 max done ids, 9 item count, then per item 9 values:
--       key index, table ttl ms (-1 forever), period, player, name, games, wins, points, rating
for i = 1, #KEYS do
  local t = ktype(KEYS[i])
  local want = 'hash'
  if i == 1 or i == 2 or i == 5 then want = 'zset' elseif i == 3 or i == 6 then want = 'string'
  elseif i == 4 then want = 'set' end
  if t ~= 'none' and t ~= want then return {4, KEYS[i], t} end
end
if redis.call('ZSCORE', KEYS[1], ARGV[5]) or redis.call('EXISTS', KEYS[6]) == 1
    or redis.call('EXISTS', KEYS[3]) == 1 then return {3} end
local now = tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[1])))
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[8])
if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local keep = tonumber(ARGV[2])
local dropped = {}
if keep ~= 0 then
  if keep > 0 then
    redis.call('SET', KEYS[3], ARGV[6], 'PX', keep)
  else
    redis.call('SET', KEYS[3], ARGV[6])
  end
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
  if keep > 0 then
    local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - keep))
    for _, m in ipairs(old) do dropped[#dropped + 1] = m end
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - keep))
    redis.call('PEXPIRE', KEYS[2], keep)
  else
    redis.call('PERSIST', KEYS[2])
  end
  local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
  if over > 0 then
    local old = redis.call('ZRANGE', KEYS[2], 0, over - 1)
    for _, m in ipairs(old) do dropped[#dropped + 1] = m end
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  end
end
local n = tonumber(ARGV[9])
for i = 0, n - 1 do
  local b = 10 + i * 9
  local key = KEYS[tonumber(ARGV[b])]
  local p = ARGV[b + 3]
  redis.call('HINCRBY', key, 'g:' .. p, ARGV[b + 5])
  redis.call('HINCRBY', key, 'w:' .. p, ARGV[b + 6])
  redis.call('HINCRBY', key, 'p:' .. p, ARGV[b + 7])
  redis.call('HSET', key, 'n:' .. p, ARGV[b + 4])
  if ARGV[b + 8] ~= '' then redis.call('HSET', key, 'r:' .. p, ARGV[b + 8]) end
  if tonumber(ARGV[b + 1]) > 0 then redis.call('PEXPIRE', key, ARGV[b + 1]) else redis.call('PERSIST', key) end
  redis.call('SADD', KEYS[4], ARGV[b + 2])
  redis.call('ZADD', KEYS[5], now, p)
end
-- Past the cap, whoever played least recently leaves every table this call names
-- (an older week's or month's table expires by itself).
local gone = {}
local over = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[7])
if over > 0 then
  gone = redis.call('ZRANGE', KEYS[5], 0, over - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[5], 0, over - 1)
  for _, p in ipairs(gone) do
    for k = 7, #KEYS do
      redis.call('HDEL', KEYS[k], 'g:' .. p, 'w:' .. p, 'p:' .. p, 'n:' .. p, 'r:' .. p)
    end
  end
end
return {1, dropped, gone}
"""
)
