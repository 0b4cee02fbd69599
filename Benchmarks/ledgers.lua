-- wrk script: GET /v1/reports/2026-10 spread over many ledgers, each request with the token of
-- a ledger picked at random from TOKENS_FILE (one token a line, one ledger each). PACE_MS, when
-- set, makes each connection wait that long after each answer (an offered rate: C connections
-- offer about C * 1000 / PACE_MS requests a second). UNCACHED=1 adds a new ?today= to each
-- request (from a random start among 326,592 days, so a later run does not repeat an earlier
-- one's), so the server's report cache answers none of them and each is a read of the database.
local tokens = {}
local pace = tonumber(os.getenv("PACE_MS") or "0")
local uncached = os.getenv("UNCACHED") == "1"
local n = 0

function init(args)
  for line in io.lines(os.getenv("TOKENS_FILE")) do
    if #line > 0 then tokens[#tokens + 1] = line end
  end
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)"), 16) % 100000)
  n = math.random(0, 326591)
end

function delay()
  return pace
end

request = function()
  n = n + 1
  local token = tokens[math.random(#tokens)]
  local path = "/v1/reports/2026-10?today=2026-10-20"
  if uncached then
    local i = n % 326592
    path = string.format("/v1/reports/2026-10?today=%04d-%02d-%02d",
      2027 + math.floor(i / 336), math.floor(i / 28) % 12 + 1, i % 28 + 1)
  end
  return wrk.format("GET", path, { ["Authorization"] = "Bearer " .. token })
end
