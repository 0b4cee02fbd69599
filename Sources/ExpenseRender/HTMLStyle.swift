/// The page's one inline style sheet (no network, no scripts).
///
/// Breakpoints follow `WindowSize` (compact < 60 ≤ regular < 100 ≤ wide terminal columns). A
/// terminal cell is about 0.6 em of a 16 px monospace font, so 60 columns ≈ 36 em (576 px) and
/// 100 columns ≈ 60 em (960 px); `em` in a media query is always the browser's 16 px default,
/// so the classes follow the reader's font size setting, as columns follow the terminal font.
/// Mobile first: the base rules are the compact layout (cards, stacked rows, the category
/// section a `<details>`); `width >= 36em` shows the table and a static category header;
/// `width >= 60em` adds the average, change, pace and projection columns and the trends table.
///
/// Nothing may push the page wider than the viewport (320 to 1920 px): every text may break
/// anywhere (`overflow-wrap: anywhere` also lowers a table cell's minimum width), amounts are
/// the only unbreakable runs, and no rule hides overflow to pass that test.
enum HTMLStyle {
  static let css = """
    :root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#55555f;--line:#d6d6de;--card:#f5f5f8;\
    --track:#e2e2e8;--over:#b3261e;--near:#8a5300;--under:#1d6b34;--bar:#3b5bdb;--focus:#1a5fd0}
    @media (prefers-color-scheme:dark){:root{--bg:#121216;--fg:#ececf1;--muted:#a9a9b5;--line:#3a3a44;\
    --card:#1c1c23;--track:#30303a;--over:#ff8a80;--near:#ffcc66;--under:#7fdc98;--bar:#8ea6ff;--focus:#9dbcff}}
    *,*::before,*::after{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
    body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.45 system-ui,-apple-system,"Segoe UI",Roboto,\
    "Noto Sans","Noto Sans CJK JP",sans-serif;overflow-wrap:anywhere;word-break:normal}
    main{max-width:75rem;margin:0 auto;padding:1rem}
    h1{font-size:1.4rem;margin:0}h2{font-size:1.1rem;margin:0}h3{font-size:1rem;margin:.8rem 0 .3rem}
    .asof{color:var(--muted);margin:.2rem 0 1rem}
    .n,.amt{white-space:nowrap;font-variant-numeric:tabular-nums}
    .muted{color:var(--muted)}
    .over{color:var(--over)}.near{color:var(--near)}.under{color:var(--under)}
    .facts{list-style:none;margin:.3rem 0;padding:0}.facts li{margin:.15rem 0}
    .section{margin:1.2rem 0;border-top:1px solid var(--line);padding-top:.6rem}
    summary{cursor:pointer;list-style:none;display:block;padding:.2rem 0;font-weight:600;border-radius:.25rem}
    summary::-webkit-details-marker{display:none}
    summary:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
    .chev{display:inline-block;width:1.2em;transition:transform .2s ease-in-out}
    details[open]>summary .chev{transform:rotate(90deg)}
    .count{font-weight:400;color:var(--muted)}
    details[open]>.body{animation:reveal .2s ease-in-out}
    @keyframes reveal{from{opacity:0;transform:translateY(-.3rem)}to{opacity:1;transform:none}}
    @media (prefers-reduced-motion:reduce){.chev{transition:none}details[open]>.body{animation:none}}
    .cards{list-style:none;margin:.4rem 0;padding:0;display:grid;gap:.5rem}
    #summary>.bar{max-width:30rem}
    .card{background:var(--card);border-radius:.4rem;padding:.5rem .6rem}
    .card-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.2rem .6rem}
    .card-head .name{font-weight:600;min-width:0}
    .card .amounts{color:var(--muted);font-size:.95rem}
    .bar{display:block;height:.5rem;background:var(--track);border-radius:.25rem;margin-top:.35rem;\
    position:relative;overflow:hidden;min-width:2rem}
    .bar>span{display:block;height:100%;background:var(--bar);border-radius:.25rem}
    .bar.over>span{background:var(--over)}.bar.near>span{background:var(--near)}.bar.under>span{background:var(--under)}
    .bar.past::after{content:"";position:absolute;right:0;top:0;bottom:0;width:.25rem;background:var(--fg)}
    table{width:100%;border-collapse:collapse;margin:.4rem 0;font-size:.95rem}
    .st{overflow-wrap:normal}
    th,td{padding:.25rem .35rem;text-align:left;vertical-align:top;border-bottom:1px solid var(--line)}
    thead th{font-weight:600;color:var(--muted)}
    td.n,th.n{text-align:right}
    tfoot th,tfoot td{font-weight:600;border-bottom:0}
    .perf td.used .bar{margin-top:.2rem}
    .x{display:none}
    .only-wide{display:none}
    .stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
    .stack tr{display:flex;flex-wrap:wrap;gap:0 .8rem;padding:.35rem 0;border-bottom:1px solid var(--line)}
    .stack td,.stack th{display:block;padding:0;border:0}
    .stack .grow{flex:1 1 100%}
    .stack td.amount{margin-left:auto}
    .stack td[data-label]::before{content:attr(data-label) " ";color:var(--muted)}
    @media (width>=36em){
    .only-narrow{display:none}.only-wide{display:block}
    .regular-table thead{position:static;width:auto;height:auto;overflow:visible;clip-path:none;white-space:normal}
    .regular-table tr{display:table-row;padding:0;border:0}
    .regular-table td,.regular-table th{display:table-cell;padding:.25rem .4rem;border-bottom:1px solid var(--line)}
    .regular-table td[data-label]::before{content:none}
    }
    @media (width>=60em){
    .x{display:table-cell}
    .wide-table thead{position:static;width:auto;height:auto;overflow:visible;clip-path:none;white-space:normal}
    .wide-table tr{display:table-row;padding:0;border:0}
    .wide-table td,.wide-table th{display:table-cell;padding:.25rem .4rem;border-bottom:1px solid var(--line)}
    .wide-table td[data-label]::before{content:none}
    }
    """
}
