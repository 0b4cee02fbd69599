-- wrk script: each connection waits PACE_MS between its requests, so C connections offer about
-- C * 1000 / PACE_MS requests a second (an offered rate, not as fast as the server answers).
local pace = tonumber(os.getenv("PACE_MS") or "10")
function delay()
  return pace
end
