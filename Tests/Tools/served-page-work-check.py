#!/usr/bin/env python3
"""Drives the page `expenses serve` answers as a user who works in it, in headless Chromium
(Selenium), and checks each change with the CLI (another process) on the same database.

Usage: served-page-work-check.py BASE_URL TOKEN EXPENSES_BINARY DATABASE OUTDIR

BASE_URL is a running `expenses serve` on DATABASE (the demo imported), TOKEN a write token.
It checks:
  - without JavaScript the page still reads and moves between months: the previous and next
    links and the month picker (a plain GET form) lead to those months' pages;
  - with it: a row filed into a category through its "File" button is what `expenses list`
    then shows; "Undo last change" takes it back (and `expenses history` shows the undo); a
    budget set in the page is what `expenses budget list` shows; a statement chosen for upload
    is previewed first (nothing written) and then imported;
  - every outcome is announced in the page's role=status region;
  - at 320, 768 and 1440 px wide the page never scrolls sideways, even with a row's form open;
  - every control is reached with the Tab key;
  - no Content-Security-Policy violation is logged.
Screenshots go to OUTDIR (served-work-320.png, served-work-1440.png). Exit 0 when all pass, 1 on
a failed check, 2 when Selenium, Chromium or chromedriver is missing.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_session import check, cli, driver, failures, wait_for  # noqa: E402  (exits 2 without Selenium)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

PAGE_QUERY = "?today=2026-10-20"


def log_in(d, base, token):
    d.get(base + "/login")
    d.find_element(By.NAME, "token").send_keys(token)
    d.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    check(wait_for(lambda: "/reports/" in d.current_url), f"logging in leads to a report ({d.current_url})")


def notice(d):
    return d.execute_script(
        "const p=document.getElementById('save-notice');"
        "return p&&!p.hidden&&p.getAttribute('role')==='status'?p.textContent:''")


def no_sideways_scroll(d, what):
    width = d.execute_script("return document.documentElement.clientWidth")
    scroll = d.execute_script("return document.documentElement.scrollWidth")
    check(scroll <= width, f"{what}: no horizontal scroll ({scroll} <= {width})")


def open_expenses(d):
    if not d.execute_script("return document.querySelector(\"details[data-section='expenses']\").open"):
        summary = d.find_element(By.CSS_SELECTOR, "details[data-section='expenses'] > summary")
        d.execute_script("arguments[0].scrollIntoView({block:'center'})", summary)
        summary.click()
        wait_for(lambda: d.execute_script("return document.querySelector(\"details[data-section='expenses']\").open"))


def without_javascript(base, token):
    d = driver(javascript=False)
    try:
        log_in(d, base, token)
        d.get(base + "/reports/2026-10" + PAGE_QUERY)
        check(d.find_elements(By.ID, "work") == [], "without JavaScript: no writing controls")
        check("October 2026 budget" in d.title, f"without JavaScript: the page reads ({d.title})")
        d.find_element(By.CSS_SELECTOR, "nav.months a[rel=prev]").click()
        check(wait_for(lambda: d.current_url.endswith("/reports/2026-09" + PAGE_QUERY)),
              f"without JavaScript: the previous link leads to September ({d.current_url})")
        d.find_element(By.CSS_SELECTOR, "nav.months a[rel=next]").click()
        check(wait_for(lambda: d.current_url.endswith("/reports/2026-10" + PAGE_QUERY)),
              f"without JavaScript: the next link leads back to October ({d.current_url})")
        picker = d.find_element(By.CSS_SELECTOR, "nav.months input[name=month]")
        d.execute_script("arguments[0].value='2026-07'", picker)
        d.find_element(By.CSS_SELECTOR, "nav.months button[type=submit]").click()
        check(wait_for(lambda: d.current_url.endswith("/reports/2026-07" + PAGE_QUERY)),
              f"without JavaScript: the month picker leads to July ({d.current_url})")
        check("July 2026 budget" in d.title, f"the picked month's page ({d.title})")
    finally:
        d.quit()


def run(base, token, binary, database, outdir):
    without_javascript(base, token)
    d = driver()
    try:
        log_in(d, base, token)
        page = base + "/reports/2026-10" + PAGE_QUERY
        d.get(page)
        check(wait_for(lambda: d.find_elements(By.ID, "undo-last")), "the page has its writing controls")

        # Widths: never sideways, even with a row's form open.
        for width in [320, 768, 1440]:
            d.set_window_size(width, 900)
            d.get(page)
            wait_for(lambda: d.find_elements(By.ID, "undo-last"))
            open_expenses(d)
            no_sideways_scroll(d, f"{width} px")
            button = d.find_element(By.CSS_SELECTOR, "tr[data-expense-id] button.file-row")
            d.execute_script("arguments[0].scrollIntoView({block:'center'})", button)
            button.click()
            wait_for(lambda: d.find_elements(By.CSS_SELECTOR, "form.inline-file input"))
            no_sideways_scroll(d, f"{width} px with a row's form open")
            if width in (320, 1440):
                d.execute_script("window.scrollTo(0,0)")
                d.save_screenshot(os.path.join(outdir, f"served-work-{width}.png"))

        # Keyboard: Tab reaches every kind of control.
        d.set_window_size(768, 900)
        d.get(page)
        wait_for(lambda: d.find_elements(By.ID, "undo-last"))
        open_expenses(d)
        d.get(page)
        wait_for(lambda: d.find_elements(By.CSS_SELECTOR, "tr[data-expense-id] button.file-row"))
        d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0,0)")
        reached = set()
        order = []
        ActionChains(d).send_keys(Keys.TAB).perform()
        for _ in range(400):
            focused = d.execute_script(
                "const e=document.activeElement;if(!e)return '';"
                "if(e.id)return '#'+e.id;if(e.classList.contains('file-row'))return 'file-row';"
                "if(e.form&&e.form.id)return e.form.id+':'+(e.name||e.type);return e.tagName+':'+(e.getAttribute('rel')||e.name||'')")
            reached.add(focused)
            order.append(focused)
            ActionChains(d).send_keys(Keys.TAB).perform()
        for wanted in ["#undo-last", "budget-form:category", "budget-form:amount", "budget-form:submit",
                       "import-form:file", "import-form:submit", "file-row", "A:prev", "A:next", "INPUT:month"]:
            check(wanted in reached, f"Tab reaches {wanted}")

        # File a row into a category, then undo it.
        d.set_window_size(1440, 1000)
        d.get(page)
        open_expenses(d)
        row = d.find_element(By.CSS_SELECTOR, "tr[data-expense-id]")
        expense_id = int(row.get_attribute("data-expense-id"))
        before = {e["id"]: e for e in json.loads(cli(binary, database, "list", "--format", "json"))}
        row.find_element(By.CSS_SELECTOR, "button.file-row").click()
        field = row.find_element(By.CSS_SELECTOR, "form.inline-file input")
        field.clear()
        field.send_keys("Travel")
        field.send_keys(Keys.ENTER)
        check(wait_for(lambda: "Filed" in notice(d)), f"filing is announced ({notice(d)})")
        after = {e["id"]: e for e in json.loads(cli(binary, database, "list", "--format", "json"))}
        check(after[expense_id]["category"] == "Travel",
              f"the CLI lists the row filed into Travel ({after[expense_id].get('category')})")
        d.find_element(By.ID, "undo-last").click()
        check(wait_for(lambda: "Undid change" in notice(d)), f"the undo is announced ({notice(d)})")
        undone = {e["id"]: e for e in json.loads(cli(binary, database, "list", "--format", "json"))}
        check(undone[expense_id]["category"] == before[expense_id]["category"], "the CLI lists the row as it was")
        history = json.loads(cli(binary, database, "history", "--format", "json"))
        check(history[0]["action"] == "undo" and "token" in history[0]["by"],
              f"`expenses history` shows the page's undo, made with its token ({history[0]})")

        # A budget.
        d.find_element(By.CSS_SELECTOR, "#budget-form input[name=category]").send_keys("Travel")
        d.find_element(By.CSS_SELECTOR, "#budget-form input[name=amount]").send_keys("123.45")
        d.find_element(By.CSS_SELECTOR, "#budget-form button[type=submit]").click()
        check(wait_for(lambda: "Budget for Travel" in notice(d)), f"the budget is announced ({notice(d)})")
        budgets = json.loads(cli(binary, database, "budget", "list", "--format", "json"))
        travel = [b for b in budgets if b["category"] == "Travel"]
        check(len(travel) == 1 and travel[0]["amountMinor"] == 12345, f"the CLI lists Travel at 123.45 ({travel})")
        d.find_element(By.CSS_SELECTOR, "#budget-form input[name=category]").send_keys("Travel")
        d.find_element(By.CSS_SELECTOR, "#budget-form input[name=amount]").send_keys("1.234")
        d.find_element(By.CSS_SELECTOR, "#budget-form button[type=submit]").click()
        check(wait_for(lambda: "must be a number" in notice(d)), f"a third decimal is refused in words ({notice(d)})")

        # An import: the preview first, then the rows.
        statement = os.path.join(outdir, "page-upload.csv")
        with open(statement, "w") as f:
            f.write("Date,Description,Amount\n2026-10-18,PAGE UPLOAD CAFE,-4.50\n2026-10-19,PAGE UPLOAD SHOP,-12.00\n")
        count = len(json.loads(cli(binary, database, "list", "--format", "json")))
        d.find_element(By.CSS_SELECTOR, "#import-form input[type=file]").send_keys(statement)
        d.find_element(By.CSS_SELECTOR, "#import-form button[type=submit]").click()
        check(wait_for(lambda: "2 new rows" in notice(d)), f"the preview is announced ({notice(d)})")
        check(len(json.loads(cli(binary, database, "list", "--format", "json"))) == count,
              "the preview wrote nothing")
        d.find_element(By.ID, "import-confirm").click()
        check(wait_for(lambda: "Imported 2 rows" in notice(d)), f"the import is announced ({notice(d)})")
        check(len(json.loads(cli(binary, database, "list", "--format", "json"))) == count + 2,
              "the CLI lists the two imported rows")

        refused = [e["message"] for e in d.get_log("browser")
                   if "Content Security Policy" in e["message"] or "Refused" in e["message"]]
        check(not refused, f"no policy violations ({refused})")
    finally:
        d.quit()


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        return 64
    base, token, binary, database, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    run(base.rstrip("/"), token, binary, database, outdir)
    print(f"{len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
