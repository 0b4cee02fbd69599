/// `GET /login`: where a browser gives its token once. Self-contained like the report page
/// (inline CSS, no script, no network), and its policy allows posting the form to this origin only.
enum LoginPage {
  static let policy = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"
  /// As a header it can also forbid framing (ignored in a `<meta>`), so a page cannot overlay it.
  static let headerPolicy = policy + "; frame-ancestors 'none'"

  /// The form, with `error` (a fixed sentence, never request text) above it when there is one.
  static func html(error: String? = nil) -> String {
    let message = error.map { "<p class=\"error\" role=\"alert\">\($0)</p>" } ?? ""
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta http-equiv="Content-Security-Policy" content="\(policy)">
      <title>Log in · expenses</title>
      <style>
      body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem}
      main{max-width:32rem;margin:2rem auto}
      label{display:block;font-weight:600;margin:.5rem 0 .25rem}
      input{box-sizing:border-box;width:100%;font:inherit;padding:.4rem}
      button{font:inherit;margin-top:.75rem;padding:.4rem 1rem}
      code{overflow-wrap:anywhere}
      .error{border:1px solid #b00020;color:#b00020;padding:.4rem .6rem;border-radius:.3rem}
      @media (prefers-color-scheme: dark){.error{border-color:#ff8a80;color:#ff8a80}}
      </style>
      </head>
      <body>
      <main>
      <h1>Log in</h1>
      \(message)
      <form method="post" action="/login">
      <label for="token">API token</label>
      <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required autofocus>
      <button type="submit">Log in</button>
      </form>
      <p>Make a token with <code>expenses token create NAME --scope write</code> (a <code>read</code> token can view
      the report but not save which sections are open). The browser keeps it in a cookie scripts cannot read;
      revoking the token logs the browser out.</p>
      </main>
      </body>
      </html>

      """
  }
}
