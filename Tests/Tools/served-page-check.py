#!/usr/bin/env python3
"""Drives the page `expenses serve` answers in headless Chromium (Selenium) and checks that a
toggle in the page is what the CLI then reports.

Usage: served-page-check.py BASE_URL TOKEN READ_TOKEN EXPENSES_BINARY DATABASE OUTDIR

BASE_URL is a running `expenses serve` on DATABASE (the demo imported, sections in their
defaults: expenses collapsed), TOKEN a write token, READ_TOKEN a read one. It checks:
  - `/` sends a browser without a cookie to the login form; the form, given TOKEN, sets an
    HttpOnly SameSite=Strict cookie and leads to a report page;
  - /reports/2026-10?today=2026-10-20 loads its one script under its policy (no CSP reports);
  - clicking the Expenses summary is saved: `expenses report --format json` on DATABASE then
    says the `expenses` section is expanded; after a reload the <details> is open;
  - with `expenses sections accordion on`, clicking Trends closes Expenses in the page;
  - the page's Log out button clears the cookie; logged in with READ_TOKEN, a click is refused:
    the page says the change is not saved, puts the section back, and the CLI sees no change.
A screenshot of the served page at 1440 px goes to OUTDIR (served-1440.png). Exit 0 when all
pass, 1 on a failed check, 2 when Selenium, Chromium or chromedriver is missing.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_session import check, cli, driver, failures, wait_for  # noqa: E402  (exits 2 without Selenium)
from selenium.webdriver.common.by import By  # noqa: E402


def saved_states(binary, database):
    text = cli(binary, database, "report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json")
    return {s["id"]: s["expanded"] for s in json.loads(text)["sections"]}


def is_open(d, sid):
    return d.execute_script(f"return document.querySelector(\"details[data-section='{sid}']\").open")


def click(d, sid):
    summary = d.find_element(By.CSS_SELECTOR, f"details[data-section='{sid}'] > summary")
    d.execute_script("arguments[0].scrollIntoView({block:'center'})", summary)
    summary.click()


def log_in(d, base, token):
    d.get(base + "/")
    check(d.current_url == base + "/login", f"/ without a cookie leads to the login form ({d.current_url})")
    d.find_element(By.NAME, "token").send_keys(token)
    d.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    check(wait_for(lambda: "/reports/" in d.current_url), f"logging in leads to a report ({d.current_url})")


def run(base, token, read_token, binary, database, outdir):
    d = driver()
    try:
        log_in(d, base, token)
        cookies = {c["name"]: c for c in d.get_cookies()}
        cookie = cookies.get("expenses_session", {})
        check(cookie.get("value") == token, "the session cookie holds the token")
        check(cookie.get("httpOnly") is True, "the session cookie is HttpOnly")
        check(cookie.get("sameSite") == "Strict", f"the session cookie is SameSite=Strict ({cookie.get('sameSite')})")
        check(d.execute_script("return document.cookie") == "", "scripts cannot read the cookie")

        page = base + "/reports/2026-10?today=2026-10-20"
        d.get(page)
        check(d.execute_script("return document.scripts.length") == 1, "the served page has one script")
        check(saved_states(binary, database).get("expenses") is False, "expenses starts collapsed (CLI)")
        check(not is_open(d, "expenses"), "expenses starts collapsed (page)")

        click(d, "expenses")
        check(is_open(d, "expenses"), "clicking the Expenses summary opens it")
        check(wait_for(lambda: saved_states(binary, database).get("expenses") is True),
              "after the click, `expenses report --format json` says expenses is expanded")
        d.get(page)
        check(is_open(d, "expenses"), "after a reload the Expenses section is open")

        cli(binary, database, "sections", "accordion", "on")
        d.get(page)
        # Accordion mode keeps at most one section open; make sure Trends is the closed one.
        if is_open(d, "trends"):
            click(d, "trends")
            wait_for(lambda: not is_open(d, "trends"))
        if not is_open(d, "expenses"):
            click(d, "expenses")
            wait_for(lambda: saved_states(binary, database).get("expenses") is True)
        check(is_open(d, "expenses") and not is_open(d, "trends"), "accordion: Expenses open, Trends closed")
        click(d, "trends")
        check(wait_for(lambda: not is_open(d, "expenses")), "accordion: clicking Trends closes Expenses in the page")
        check(is_open(d, "trends"), "accordion: Trends stays open")
        # The page may close Expenses before its save of Trends has answered: wait for the save.
        wait_for(lambda: saved_states(binary, database).get("trends") is True)
        states = saved_states(binary, database)
        check(states.get("trends") is True and states.get("expenses") is False,
              f"accordion: the CLI shows Trends open and Expenses closed ({states})")

        d.execute_script("window.scrollTo(0,0)")
        path = os.path.join(outdir, "served-1440.png")
        d.save_screenshot(path)
        print(f"screenshot {path}")

        d.find_element(By.CSS_SELECTOR, "header form[action='/logout'] button").click()
        check(wait_for(lambda: d.current_url == base + "/login"), f"Log out leads to the login form ({d.current_url})")
        check(not any(c["name"] == "expenses_session" for c in d.get_cookies()), "Log out clears the cookie")
        log_in(d, base, read_token)
        d.get(page)
        check(is_open(d, "trends"), "read token: the page shows the saved states")
        click(d, "trends")
        notice = lambda: d.execute_script("const p=document.getElementById('save-notice');return p&&!p.hidden?p.textContent:''")
        check(wait_for(lambda: "not saved" in notice()), f"read token: the page says the change is not saved ({notice()})")
        check(wait_for(lambda: is_open(d, "trends")), "read token: the refused toggle is put back")
        check(saved_states(binary, database) == states, "read token: the CLI sees no change")

        refused = [e["message"] for e in d.get_log("browser")
                   if "Content Security Policy" in e["message"] or "Refused" in e["message"]]
        check(not refused, f"no policy violations ({refused})")
    finally:
        d.quit()


def main():
    if len(sys.argv) != 7:
        print(__doc__, file=sys.stderr)
        return 64
    base, token, read_token, binary, database, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    run(base.rstrip("/"), token, read_token, binary, database, outdir)
    print(f"{len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
