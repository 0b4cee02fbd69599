-- wrk script: GET /v1/reports/2026-10 with a new ?today= on each request (8,064 dates cycled),
-- so the server's report cache (256 entries) answers almost none and each request is a read
-- of the database: what a read replica takes from the primary.
local n = 0
request = function()
  n = n + 1
  local i = n % 8064
  local day = i % 28 + 1
  local month = math.floor(i / 28) % 12 + 1
  local year = 2027 + math.floor(i / 336)
  return wrk.format(nil, string.format("/v1/reports/2026-10?today=%04d-%02d-%02d", year, month, day))
end
