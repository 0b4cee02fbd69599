/// `GET /page.js`: the served page's one script. It saves a section when the reader opens or
/// closes it, then shows the saved states (accordion mode, applied by the server, closes the
/// others; a refused save reverts the toggle and says why). Without it the page still folds and
/// moves between months (links and a GET form), it just does not save or write.
///
/// It makes the page a place to work, each write one call of the API (so one change of the
/// history): a "File" button on every expense row (`PATCH /v1/expenses/{id}`, the category
/// completed over `/v1/categories`), a form to set a budget (`PUT /v1/budgets/{category}`, the
/// amount read as decimal text into minor units, never a float), an upload that previews first
/// (`POST /v1/imports?preview=true`, then the import), and "Undo last change"
/// (`/v1/history`, `POST /v1/history/{id}/undo`). After a write the page is read again and the
/// outcome is announced in one `role=status` region, as `--plain` says it in words.
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

      // ---- Writing: every change goes through the API, then the page is read again. ----
      const main = document.querySelector("main");
      if (!main || !main.dataset.currency) return;
      const after = sessionStorage.getItem("expenses-notice");
      if (after) { sessionStorage.removeItem("expenses-notice"); notice(after); }

      function el(tag, attributes, text) {
        const node = document.createElement(tag);
        for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
        if (text !== undefined) node.textContent = text;
        return node;
      }

      async function problemText(response) {
        if (response.status === 403) return "This login may only read: nothing was changed.";
        if (response.status === 401) return "You are logged out: nothing was changed.";
        try {
          const problem = await response.json();
          if (problem && problem.detail) return problem.detail;
        } catch (error) {}
        return "Nothing was changed (HTTP " + response.status + ").";
      }

      async function call(method, path, body, type) {
        const init = { method, credentials: "same-origin", headers: { ...headers } };
        if (body !== undefined) {
          init.headers["Content-Type"] = type || "application/json";
          init.body = type ? body : JSON.stringify(body);
        }
        return fetch(path, init);
      }

      // A write that worked: say so after the page is read again.
      function done(text) {
        sessionStorage.setItem("expenses-notice", text);
        location.reload();
      }

      // Decimal text to minor units by digits alone ("12.5" → 1250 for 2 digits).
      function minorUnits(text, digits) {
        const match = /^\s*(\d{1,15})(?:[.,](\d*))?\s*$/.exec(text);
        if (!match) return null;
        const fraction = match[2] || "";
        if (fraction.length > digits) return null;
        return Number(match[1] + fraction.padEnd(digits, "0"));
      }

      const names = el("datalist", { id: "category-names" });
      main.append(names);
      fetch("/v1/categories", { credentials: "same-origin", headers }).then(r => r.ok ? r.json() : null).then(list => {
        for (const c of (list && list.categories) || []) names.append(el("option", { value: c.name }));
      }).catch(() => {});

      // File a row: its category cell gets a button, then a small form in place.
      for (const row of document.querySelectorAll("tr[data-expense-id]")) {
        const id = row.dataset.expenseId;
        const cell = row.querySelector("td[data-label='Category']");
        if (!cell) continue;
        const what = (row.querySelector("td.grow") || {}).textContent || ("expense " + id);
        const open = el("button", { type: "button", "aria-label": "File " + what + " into a category" }, "File");
        open.className = "file-row";
        cell.append(" ", open);
        open.addEventListener("click", () => {
          const form = el("form", { class: "inline-file" });
          const input = el("input", { list: "category-names", name: "category", required: "",
            "aria-label": "Category for " + what, autocomplete: "off" });
          input.value = cell.firstChild ? cell.firstChild.textContent.trim() : "";
          const save = el("button", { type: "submit" }, "Save");
          const cancel = el("button", { type: "button" }, "Cancel");
          form.append(input, save, cancel);
          open.hidden = true;
          cell.append(form);
          input.focus();
          input.select();
          cancel.addEventListener("click", () => { form.remove(); open.hidden = false; open.focus(); });
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            const category = input.value.trim();
            if (!category) return;
            const response = await call("PATCH", "/v1/expenses/" + id, { category });
            if (response.ok) done("Filed " + what + " into " + category + ". Undo last change takes it back.");
            else notice(await problemText(response));
          });
        });
      }

      // Budgets and imports below the report, read first; the undo beside Log out, at hand.
      const work = el("section", { class: "section work", id: "work", "aria-labelledby": "work-title" });
      work.append(el("h2", { id: "work-title" }, "Budgets and imports"));
      main.append(work);

      // Undo the last change (the newest one that is not an undo and stands).
      const undo = el("button", { type: "button", id: "undo-last" }, "Undo last change");
      const tools = el("p", { class: "work" });
      tools.append(undo);
      (header || main).append(tools);
      undo.addEventListener("click", async () => {
        const listed = await fetch("/v1/history?limit=200", { credentials: "same-origin", headers });
        if (!listed.ok) return notice(await problemText(listed));
        const last = (await listed.json()).changes.find(c => c.action !== "undo" && c.undoable);
        if (!last) return notice("There is no change left to undo.");
        const response = await call("POST", "/v1/history/" + last.id + "/undo");
        if (response.ok) done("Undid change #" + last.id + ": " + last.summary);
        else notice(await problemText(response));
      });

      // Set a budget: every month's, in the ledger's default currency.
      const budget = el("form", { id: "budget-form", "aria-label": "Set a budget" });
      const category = el("input", { list: "category-names", name: "category", required: "", autocomplete: "off" });
      const amount = el("input", { name: "amount", required: "", inputmode: "decimal", size: "8" });
      const currency = main.dataset.currency;
      const digits = Number(main.dataset.minorDigits || "2");
      const l1 = el("label", {}, "Budget for ");
      l1.append(category);
      const l2 = el("label", {}, " " + currency + " ");
      l2.append(amount);
      budget.append(l1, l2, el("button", { type: "submit" }, "Set budget"));
      work.append(budget);
      budget.addEventListener("submit", async (event) => {
        event.preventDefault();
        const minor = minorUnits(amount.value, digits);
        if (minor === null) return notice("The amount must be a number like 400 or 12.50; nothing was changed.");
        const name = category.value.trim();
        const response = await call("PUT", "/v1/budgets/" + encodeURIComponent(name), { amountMinor: minor, currency });
        if (response.ok) done("Budget for " + name + " set to " + amount.value.trim() + " " + currency + " a month.");
        else notice(await problemText(response));
      });

      // Import a statement: a preview first, then the import itself.
      const upload = el("form", { id: "import-form", "aria-label": "Import a statement" });
      const file = el("input", { type: "file", name: "file", required: "" });
      const l3 = el("label", {}, "Statement ");
      l3.append(file);
      upload.append(l3, el("button", { type: "submit" }, "Preview import"));
      const preview = el("div", { class: "preview", id: "import-preview" });
      work.append(upload, preview);
      upload.addEventListener("submit", async (event) => {
        event.preventDefault();
        const chosen = file.files[0];
        if (!chosen) return;
        const query = "?file=" + encodeURIComponent(chosen.name);
        const response = await call("POST", "/v1/imports" + query + "&preview=true", chosen, "application/octet-stream");
        if (!response.ok) return notice(await problemText(response));
        const summary = await response.json();
        preview.replaceChildren();
        const words = summary.new + " new row" + (summary.new === 1 ? "" : "s") + ", " + summary.duplicates +
          " already stored" + (summary.rejected ? ", " + summary.rejected + " refused" : "");
        preview.append(el("p", {}, "Preview of " + chosen.name + ": " + words + ". Nothing is written yet."));
        const go = el("button", { type: "button", id: "import-confirm" }, "Import " + summary.new + " rows");
        preview.append(go);
        notice("Preview of " + chosen.name + ": " + words + ".");
        go.focus();
        go.addEventListener("click", async () => {
          const stored = await call("POST", "/v1/imports" + query, chosen, "application/octet-stream");
          if (!stored.ok) return notice(await problemText(stored));
          const result = await stored.json();
          done("Imported " + result.new + " rows from " + chosen.name + ". Undo last change takes them back.");
        });
      });
    })();
    """#
}
