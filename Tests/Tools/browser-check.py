#!/usr/bin/env python3
"""Loads report pages in headless Chromium (Selenium) at several viewport widths and checks them.

Usage: browser-check.py OUTDIR PAGE.html REPORT.json [PAGE.html REPORT.json ...]

REPORT.json is `expenses report --format json` for the same data and section states: its
`sections` say which sections must be open. For each page and width (320, 375, 768, 1440,
1920 CSS px, plus the breakpoint edges 575/576 and 959/960) it checks:
  - the page is no wider than the viewport (documentElement.scrollWidth <= innerWidth and
    <= clientWidth), and neither html nor body hides horizontal overflow;
  - every collapsible section is a <details> in its saved state;
  - below 36em (576 px) the categories are cards in a collapsible <details> and the table is
    hidden; from 576 px the table shows (a static header) and the cards do not; the average,
    change, pace and projection columns show only from 960 px;
  - clicking each visible <summary> opens/closes its section (its content shows and hides),
    and Enter on a focused summary toggles it too (keyboard);
  - the page loads nothing and runs no script.
Screenshots at 375 and 1440 px go to OUTDIR. Exit 0 when all pass, 1 on a failed check, 2
when Selenium, Chromium or chromedriver is missing (the message says what to install).
"""
import json
import os
import sys

WIDTHS = [320, 375, 575, 576, 768, 959, 960, 1440, 1920]
SCREENSHOT_WIDTHS = [375, 1440]


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_session  # noqa: E402  (exits 2 without Selenium, Chromium or chromedriver)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def driver():
    return chromium_session.driver(width=1920)


failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
    return ok


def displayed(d, css):
    elements = d.find_elements(By.CSS_SELECTOR, css)
    return any(e.is_displayed() for e in elements)


def body_shown(details):
    body = details.find_element(By.CSS_SELECTOR, ":scope > .body")
    rect = body.rect
    return body.is_displayed() and rect["height"] > 0


def run(outdir, pages):
    d = driver()
    try:
        for html, report_path in pages:
            name = os.path.splitext(os.path.basename(html))[0]
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
            expanded = {s["id"]: s["expanded"] for s in report["sections"]}
            for width in WIDTHS:
                where = f"{name} @ {width}px"
                d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                  {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
                d.get("file://" + os.path.abspath(html))
                m = d.execute_script(
                    "const e=document.documentElement;return {sw:e.scrollWidth,cw:e.clientWidth,iw:innerWidth,"
                    "ho:getComputedStyle(e).overflowX,bo:getComputedStyle(document.body).overflowX,"
                    "scripts:document.scripts.length,loads:performance.getEntriesByType('resource').length}")
                check(m["iw"] == width, f"{where}: viewport is {m['iw']} px")
                check(m["sw"] <= m["iw"] and m["sw"] <= m["cw"],
                      f"{where}: page is {m['sw']} px wide in a {m['cw']} px viewport (horizontal scrolling)")
                check(m["ho"] not in ("hidden", "clip") and m["bo"] not in ("hidden", "clip"),
                      f"{where}: html/body hide horizontal overflow ({m['ho']}/{m['bo']})")
                check(m["scripts"] == 0 and m["loads"] == 0, f"{where}: {m['scripts']} scripts, {m['loads']} loads")
                narrow = width < 576
                wide = width >= 960
                # Saved states: every collapsible section is a <details> open as saved.
                counts = {s["id"]: s["itemCount"] for s in report["sections"]}
                for sid, want in expanded.items():
                    if sid in ("goals", "accounts", "recurring", "tags") and counts.get(sid) == 0:
                        # Printed only when there are goals, balances a statement stated,
                        # recurring series or tags.
                        check(not d.find_elements(By.CSS_SELECTOR, f"details[data-section={sid}]"),
                              f"{where}: {sid} without any")
                        continue
                    if sid == "summary":
                        check(displayed(d, "section#summary"), f"{where}: summary not shown")
                        check(not d.find_elements(By.CSS_SELECTOR, "details[data-section=summary]"),
                              f"{where}: summary is collapsible")
                        continue
                    details = d.find_elements(By.CSS_SELECTOR, f"details[data-section='{sid}']")
                    if not check(len(details) == 1, f"{where}: {len(details)} <details> for {sid}"):
                        continue
                    is_open = details[0].get_attribute("open") is not None
                    check(is_open == want, f"{where}: {sid} is {'open' if is_open else 'closed'}, saved {want}")
                # Layout per width class.
                if narrow:
                    check(displayed(d, "details#category-performance"), f"{where}: no collapsible categories")
                    check(not displayed(d, "table.perf"), f"{where}: the category table shows on a narrow page")
                    if expanded.get("category-performance"):
                        check(displayed(d, "ul.cards li.card"), f"{where}: no category cards")
                else:
                    check(not displayed(d, "details#category-performance"),
                          f"{where}: the category section is collapsible on a wide page")
                    check(not displayed(d, "ul.cards"), f"{where}: cards on a wide page")
                    check(displayed(d, "table.perf"), f"{where}: no category table")
                    has_extra = bool(d.find_elements(By.CSS_SELECTOR, "table.perf th.x"))
                    if has_extra:
                        check(displayed(d, "table.perf th.x") == wide,
                              f"{where}: wide columns {'missing' if wide else 'shown'}")
                # Clicking each visible summary shows and hides its content; Enter does too.
                for details in d.find_elements(By.CSS_SELECTOR, "details.section"):
                    if not details.is_displayed():
                        continue
                    sid = details.get_attribute("data-section")
                    summary = details.find_element(By.CSS_SELECTOR, ":scope > summary")
                    d.execute_script("arguments[0].scrollIntoView({block:'center'})", summary)
                    before = details.get_attribute("open") is not None
                    check(body_shown(details) == before, f"{where}: {sid} content shown={not before} before a click")
                    summary.click()
                    after = details.get_attribute("open") is not None
                    check(after != before, f"{where}: clicking {sid} did not toggle it")
                    check(body_shown(details) == after, f"{where}: {sid} content not {'shown' if after else 'hidden'}")
                    summary.click()
                    check((details.get_attribute("open") is not None) == before, f"{where}: second click on {sid}")
                    summary.send_keys(Keys.ENTER)
                    check((details.get_attribute("open") is not None) != before, f"{where}: Enter on {sid}")
                    summary.send_keys(Keys.ENTER)
                if width in SCREENSHOT_WIDTHS:
                    d.execute_script("window.scrollTo(0,0)")
                    path = os.path.join(outdir, f"{name}-{width}.png")
                    d.save_screenshot(path)
                    print(f"screenshot {path}")
                print(f"checked {where}: {m['sw']} px wide page")
    finally:
        d.quit()


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 64
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    pages = list(zip(sys.argv[2::2], sys.argv[3::2]))
    run(outdir, pages)
    for failure in failures:
        print("FAIL " + failure)
    print(f"{len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
