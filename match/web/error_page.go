package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// errorPage is the page a person's browser gets for a refused page load (a
// mistyped or dead address, too many requests): the message in the
// reader's language under the site's header, where a program gets the
// JSON error body. It was raw JSON in English, whatever the reader's
// language.
// Parsed at first use, not at every start of the program.
var errorPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("error").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.App}}</title>
<link rel="stylesheet" href="/assets/style.css">
</head>
<body>
<header class="top"><a class="home" href="/">{{.App}}</a></header>
<main class="create"><p class="error" role="alert" id="page-error">{{.Text}}</p></main>
</body>
</html>
`))
})

// wantsPage reports whether r is a browser loading a page (its Accept
// names text/html): a person who followed a link, not a program or the
// client's own fetch, whose Accept is */*.
func wantsPage(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// writeCodeFor answers a refusal of r: writeCode's JSON for a program,
// errorPage for a person's browser, in the language the sheets would
// speak to it (sheetLang: ?lang=, else Accept-Language), the catalog's
// template filled as the client fills it.
func writeCodeFor(w http.ResponseWriter, r *http.Request, status int, code string, args map[string]string) {
	if !wantsPage(r) {
		writeCode(w, status, code, args)
		return
	}
	lang, _ := sheetLang(r)
	tx := sheetTexts()[lang]
	text := codeText.Text(code, args)
	if s := tx[code]; s != "" {
		text = message.FillIn(lang, s, args)
	}
	app := tx["app.name"]
	if app == "" {
		app = "Draughts arbiter"
	}
	var buf bytes.Buffer
	if err := errorPage().Execute(&buf, struct{ Lang, App, Text string }{lang, app, text}); err != nil {
		writeCode(w, status, code, args)
		return
	}
	h := w.Header()
	h.Add("Vary", "Accept")
	h.Add("Vary", "Accept-Language")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Del("Content-Length")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
