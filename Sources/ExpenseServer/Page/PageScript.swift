/// `GET /page.js`: the served page's one script. It saves a section when the reader opens or
/// closes it, then shows the saved states (accordion mode, applied by the server, closes the
/// others; a refused save reverts the toggle and says why). Without it the page still folds,
/// it just does not save.
///
/// Why a file and not inline: the page's policy allows scripts from its own origin only
/// (`script-src 'self'`), so a missed escape in the page could never run as a script.
/// Every request carries `X-Expenses-Page: 1`, without which the cookie does not authenticate.
enum PageScript {
  static let source = #"""
    "use strict";
    (() => {
      const headers = { "X-Expenses-Page": "1" };
      const sections = () => document.querySelectorAll("details[data-section]");
      // Each section's last saved state: a toggle that lands on it is the script's own.
      const saved = new Map();
      for (const d of sections()) saved.set(d.dataset.section, d.open);
      let queue = Promise.resolve();

      function show(id, open) {
        saved.set(id, open);
        for (const d of sections()) if (d.dataset.section === id && d.open !== open) d.open = open;
      }

      function notice(text) {
        let p = document.getElementById("save-notice");
        if (!p) {
          p = document.createElement("p");
          p.id = "save-notice";
          p.setAttribute("role", "status");
          p.style.cssText = "border:1px solid currentColor;border-radius:.4em;padding:.4em .6em;margin:.5em 0";
          const main = document.querySelector("main");
          main.insertBefore(p, main.firstChild);
        }
        p.textContent = text;
        p.hidden = !text;
      }

      async function refresh() {
        const response = await fetch("/v1/sections", { credentials: "same-origin", headers });
        if (!response.ok) throw new Error(String(response.status));
        const list = await response.json();
        for (const s of list.sections) show(s.id, s.expanded);
      }

      async function save(details) {
        const id = details.dataset.section;
        const wanted = details.open;
        if (saved.get(id) === wanted) return;
        let problem = "";
        try {
          const response = await fetch("/v1/sections/" + encodeURIComponent(id), {
            method: "PUT", credentials: "same-origin",
            headers: { ...headers, "Content-Type": "application/json" },
            body: JSON.stringify({ expanded: wanted }),
          });
          if (response.status === 403) problem = "This login may only read: the change is not saved.";
          else if (response.status === 401) problem = "You are logged out: the change is not saved.";
          else if (!response.ok) problem = "The change is not saved (HTTP " + response.status + ").";
          else saved.set(id, wanted);
        } catch (error) {
          problem = "The server did not answer: the change is not saved.";
        }
        notice(problem);
        try { await refresh(); } catch (error) { show(id, saved.get(id)); }
      }

      for (const d of sections()) {
        d.addEventListener("toggle", () => { queue = queue.then(() => save(d)); });
      }

      const header = document.querySelector("header");
      if (header) {
        const form = document.createElement("form");
        form.method = "post";
        form.action = "/logout";
        const button = document.createElement("button");
        button.type = "submit";
        button.textContent = "Log out";
        form.append(button);
        header.append(form);
      }
    })();
    """#
}
