package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/internal/qr"
)

// keepCardPage is the director's "keep this" card: the event, the secret
// link written out and as a QR code, the public address beside it, to
// print and keep (the link is the only key to the event). Its texts are
// the catalogs' dir.card.* entries in the reader's language (sheetLang).
// Parsed at first use, not at every start of the program.
var keepCardPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("card").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.T.title}} · {{.Name}}</title>
<link rel="stylesheet" href="/assets/style.css">
<link rel="stylesheet" href="/assets/director.css">
<script type="module" src="/assets/director-card.js"></script>
</head>
<body class="keep-page">
<p class="noprint buttons"><button type="button" id="print-card">{{.T.print}}</button> <a href="{{.Director}}" id="back-to-event">{{.T.back}}</a></p>
<section class="keep-card" id="keep-card">
<h1>{{.T.title}}</h1>
<p class="keep-event"><strong>{{.Name}}</strong>{{with .Facts}}<br>{{.}}{{end}}</p>
<div class="keep-row">
<div class="keep-qr" id="qr-director">{{.DirectorQR}}</div>
<div><h2>{{.T.director}}</h2>
<p class="keep-link" id="card-link">{{.DirectorURL}}</p>
<p class="keep-warn">{{.T.secret}}</p></div>
</div>
<div class="keep-row">
<div class="keep-qr small" id="qr-public">{{.PublicQR}}</div>
<div><h2>{{.T.public}}</h2>
<p class="keep-link" id="card-public">{{.PublicURL}}</p>
<p>{{.T.share}}</p></div>
</div>
</section>
</body>
</html>
`))
})

// keepCardTexts are the card's texts in English, by their catalog key
// below dir.card.
var keepCardTexts = map[string]string{
	"title":    "Keep this card",
	"print":    "Print the card",
	"back":     "Back to the event",
	"director": "The director's link",
	"secret":   "Whoever has this link runs the event: keep it safe, share it with no one. It is not stored anywhere else; a lost link cannot be recovered.",
	"public":   "The public pages",
	"share":    "Pairings, standings and results for everyone: share this one.",
}

// keepCard is GET /d/{dtoken}/card.
func (s *Server) keepCard(w http.ResponseWriter, r *http.Request) {
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	sn, err := s.dir.Get(r.Context(), id)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	lang, _ := sheetLang(r)
	tx := sheetTexts()[lang]
	texts := map[string]string{}
	for k, v := range keepCardTexts {
		texts[k] = v
		if t := strings.TrimSpace(tx["dir.card."+k]); t != "" {
			texts[k] = t
		}
	}
	base := s.base(r)
	dirURL, pubURL := base+"/d/"+token, base+"/e/"+id
	dq, err := qr.SVG(dirURL, 45)
	if err == nil {
		var pq string
		if pq, err = qr.SVG(pubURL, 30); err == nil {
			e := &sn.Event
			dates := e.Start
			if e.End != "" && e.End != e.Start {
				dates = strings.TrimPrefix(dates+" – "+e.End, " – ")
			}
			facts := strings.Join(nonEmpty(e.Site, dates), " · ")
			var buf bytes.Buffer
			err = keepCardPage().Execute(&buf, map[string]any{
				"Lang": lang, "T": texts, "Name": e.Name, "Facts": facts, "Director": "/d/" + token,
				"DirectorURL": dirURL, "PublicURL": pubURL,
				// The SVGs are written by internal/qr from a URL: markup of ours, no input's.
				"DirectorQR": template.HTML(dq), "PublicQR": template.HTML(pq),
			})
			if err == nil {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(buf.Bytes())
				return
			}
		}
	}
	s.log.Error().Str("event", id).Err(err).Msg("director: the keep-this card")
	writeCode(w, http.StatusInternalServerError, codeInternal, nil)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}
