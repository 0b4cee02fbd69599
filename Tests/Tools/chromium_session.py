"""What the browser checks share: Selenium and Chromium found (exit 2 when missing), a
headless driver, the checks' record, waiting, and the CLI run on the test's database.
Standard library plus Selenium."""
import os
import shutil
import subprocess
import sys
import time


def missing(what):
    print(f"{os.path.basename(sys.argv[0])}: {what}", file=sys.stderr)
    sys.exit(2)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    missing("Selenium is not installed: pip install selenium")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM:
    missing("Chromium is not installed: apt-get install chromium chromium-driver")
if not DRIVER:
    missing("chromedriver is not installed: apt-get install chromium-driver")

failures = []


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message)
    if not ok:
        failures.append(message)
    return ok


def driver(javascript=True, width=1440, height=1000):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--force-prefers-reduced-motion"]:
        options.add_argument(flag)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)


def cli(binary, database, *arguments):
    env = {"PATH": "/usr/bin:/bin", "HOME": os.path.dirname(database), "LANG": "C.UTF-8"}
    result = subprocess.run([binary, *arguments, "--db", database], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"expenses {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def wait_for(condition, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return condition()
