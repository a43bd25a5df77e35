package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDirectorRatings follows a director who enters four players
// by federation id, imports the federation's rating list (their ratings,
// titles and games filled: Dina Eng has 12 rated games, K 40 by FIDE B.02
// art. 8.3.3), sets Bo Dahl's K to 10 in the correction form (a rating
// that once reached 2400), plays round 1 by clicks and reads the rating
// changes on the page. Rated 2300, 2150, 2000, 1850, round 1 pairs 1-3
// and 2-4 (D = 300 on both boards, PD .85 and .15): 2300 beats 2000 (K
// 20: +3.0, −3.0), 2150 (K 10) and 1850 (K 40) draw (−3.5 → −4, +14.0).
// The CSV for the federation has the same figures. The page warns that 3
// rounds are more than half of 4 players (FMJD Swiss art. 2.4). Once
// round 1 is closed the public standings show each player's change and
// performance (Anna Berg +3 and 2000 + 800 = 2800, Dina Eng +14) and the
// player cards the change of the round (+3.0) and in total. Screenshots
// at 390 and 1366 px.
func TestBrowserDirectorRatings(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	d := newPage(t, "director")
	d.do("open /director", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the create page", `document.querySelector('#ev-variant option[value="international"]')`)
	d.do("create the event",
		chromedp.SendKeys(chromedp.CSS("#ev-name"), "Rated Open"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "3"),
		chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready`)
	token := strings.TrimPrefix(eval[string](d, `location.pathname`), "/d/")
	d.do("import the players", chromedp.SetValue(chromedp.CSS("#import-text"), "name,federation,fed_id\nAnna Berg,NOR,1001\nBo Dahl,DEN,2002\nCas Vries,NED,3003\nDina Eng,NOR,1004\n"),
		chromedp.Click(chromedp.CSS("#import")))
	d.wait("four players", `document.querySelectorAll('#players tbody tr').length === 4`)
	// 3 rounds for 4 players: more than half the field (FMJD Swiss art.
	// 2.4), a warning above the round, which blocks nothing.
	d.wait("the rounds warning", `document.querySelector('#checks li[data-check="rounds_many"]')`)
	if w := eval[string](d, `document.getElementById('checks').textContent`); w != "3 rounds for 4 players: the FMJD's Swiss rules ask for at most half the players (2 rounds). (FMJD Swiss art.\u00a02.4)" {
		t.Errorf("the checks say %q", w)
	}
	d.shot("director-checks-390", 390, 844, "#checks-box")
	d.shot("director-checks-1366", 1366, 900, "#checks-box")
	d.wait("the ratings section, empty", `document.querySelector('#ratings tbody td') && document.querySelector('#ratings tbody td').textContent.startsWith('No rated player yet')`)
	// The list says Dina Eng has 12 rated games: K 40 (art. 8.3.3).
	list := "FMJD ID;Surname;First name;Country;Title;Rating;Games\n1001;Berg;Anna;NOR;MF;2300;\n2002;Dahl;Bo;DEN;;2150;\n3003;Vries;Cas;NED;MI;2000;\n1004;Eng;Dina;NOR;;1850;12\n"
	file := filepath.Join(t.TempDir(), "fmjd-list.csv")
	if err := os.WriteFile(file, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	d.do("choose the rating list", chromedp.SetUploadFiles(chromedp.CSS("#rl-file"), []string{file}))
	d.wait("ratings filled", `window.arbiterDirector && arbiterDirector.ready && arbiterDirector.view.players.every(p => p.rating > 0) && arbiterDirector.view.players.find(p => p.fed_id === '3003').title === 'MI'`)
	// The director knows Bo Dahl once held 2400 (K 10 for good, art.
	// 8.3.3) and sets his K in the correction form.
	bo := eval[int](d, `arbiterDirector.view.players.find(p => p.fed_id === '2002').id`)
	d.do("edit Bo Dahl", chromedp.Click(chromedp.CSS(fmt.Sprintf("#edit-%d", bo))))
	d.wait("the form", `!document.getElementById('player-form').hidden && document.getElementById('ep-name').value === 'Bo Dahl'`)
	d.shot("director-edit-k-390", 390, 844, "#player-form")
	d.do("K 10", chromedp.SetValue(chromedp.CSS("#ep-k"), "10"), chromedp.Click(chromedp.CSS("#ep-save")))
	d.wait("K saved", `!arbiterDirector.busy && arbiterDirector.view.players.find(p => p.fed_id === '2002').k === 10 && document.getElementById('player-form').hidden`)
	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("two boards", `(arbiterDirector.view.rounds || []).length === 1 && document.querySelectorAll('#boards tbody tr').length === 2`)
	d.do("publish", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("published", `arbiterDirector.view.rounds[0].state === 'published' && document.getElementById('r1b2-result')`)
	// The higher-rated player of each board wins on board 1, draws on board 2.
	for b, res := range map[int]string{1: "1-0", 2: "=-="} {
		r := res
		if b == 1 && eval[int](d, `(() => { const v = arbiterDirector.view; const bd = v.rounds[0].boards[0]; const p = id => v.players.find(x => x.id === id).rating; return p(bd.white) > p(bd.black) ? 1 : 0; })()`) == 0 {
			r = "0-1"
		}
		d.do(fmt.Sprintf("board %d", b), chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#r1b%d-result", b)), r), chromedp.Click(chromedp.CSS(fmt.Sprintf("#r1b%d-save", b))))
		d.wait(fmt.Sprintf("board %d saved", b), fmt.Sprintf(`document.getElementById('r1b%d-result-cell').dataset.result === '%s' && !arbiterDirector.busy`, b, r))
	}
	d.wait("the changes shown", `document.querySelectorAll('#ratings tbody tr').length === 4 && document.querySelector('#ratings thead').textContent.includes('R1')`)
	if why := eval[string](d, `document.querySelector('#ratings tbody tr[data-player="4"] td.k').title`); why != "K 40: fewer than 30 rated games (FIDE B.02 art. 8.3.3)" {
		t.Errorf("Dina Eng's K says %q", why)
	}
	got := eval[string](d, `[...document.querySelectorAll('#ratings tbody tr')].map(r => [...r.children].map(c => c.textContent).join('|')).join('\n')`)
	for _, want := range []string{"Anna Berg|2300|20|+3.0|+3 (+3.0)|2800", "Bo Dahl|2150|10|−3.5|−4 (−3.5)|1850", "Cas Vries|2000|20|−3.0|−3 (−3.0)|1500", "Dina Eng|1850|40|+14.0|+14 (+14.0)|2150"} {
		if !strings.Contains(got, want) {
			t.Errorf("the ratings table lacks %q:\n%s", want, got)
		}
	}
	if href := eval[string](d, `document.getElementById('ratings-csv').getAttribute('href')`); href != "/d/"+token+"/ratings.csv" {
		t.Errorf("CSV link %q", href)
	}
	csv := eval[string](d, `fetch('/d/`+token+`/ratings.csv').then(r => r.text())`)
	if !strings.Contains(csv, "Anna Berg,1001,2300,20,rating,1,1,2000,2800,+3,2303,+3.0") {
		t.Errorf("the CSV:\n%s", csv)
	}
	// A Russian director reads the changes with the decimal comma
	// (+3,0), as Russian writes numbers; the CSV for the federation
	// keeps the point (a file for programs).
	d.do("choose Russian", chromedp.SetValue(chromedp.CSS("#lang"), "ru"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the changes in Russian", `document.documentElement.lang === 'ru' && document.querySelector('#ratings tbody tr[data-player="1"]') && document.querySelector('#ratings tbody tr[data-player="1"]').textContent.includes('+3,0')`)
	if row := eval[string](d, `[...document.querySelector('#ratings tbody tr[data-player="2"]').children].map(c => c.textContent).join('|')`); !strings.Contains(row, "−3,5|−4 (−3,5)") {
		t.Errorf("Bo Dahl's row in Russian: %q", row)
	}
	// The section's fixed texts follow the switch too (they stayed English).
	if got := eval[string](d, `['h2', '#ratings-note', '#ratings-csv', 'label[for="rl-file"]'].map(s => document.querySelector('#ratings-box ' + s).textContent.slice(0, 24)).join('|')`); got != "Изменения рейтинга|Положение о рейтинге FID|Скачать отчёт о рейтинге|Импорт рейтинг-листа (CS" {
		t.Errorf("the ratings section after the switch to Russian: %q", got)
	}
	d.picture("director-ratings-part-ru", chromedp.Screenshot(chromedp.CSS("#ratings-box")))
	d.do("choose English", chromedp.SetValue(chromedp.CSS("#lang"), "en"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the changes in English", `document.documentElement.lang === 'en' && document.querySelector('#ratings tbody tr[data-player="1"]').textContent.includes('+3.0')`)
	d.checkLayout("director-ratings-390", 390, 844)
	d.checkLayout("director-ratings-1366", 1366, 900)
	// The section itself (below the first screen, which checkLayout shows).
	for _, w := range []int64{390, 1366} {
		d.do("viewport", chromedp.EmulateViewport(w, 900))
		d.wait("the layout settles", fmt.Sprintf(`innerWidth === %d`, w))
		d.picture(fmt.Sprintf("director-ratings-part-%d", w), chromedp.Screenshot(chromedp.CSS("#ratings-box")))
	}

	// Round 1 closed: the public standings and cards carry the figures.
	d.do("close round 1", chromedp.Click(chromedp.CSS("#close")))
	d.wait("round 1 closed", `arbiterDirector.view.rounds[0].state === 'closed'`)
	pub := newPage(t, "public")
	eventID := eval[string](d, `arbiterDirector.view.event.id`)
	pub.do("open the standings", chromedp.Navigate(e.hs.URL+"/e/"+eventID+"/standings"))
	pub.wait("the standings", `document.querySelector('table.standings tbody tr')`)
	row := eval[[]string](pub, `[...document.querySelectorAll('table.standings tbody tr')].filter(r => r.textContent.includes('Anna Berg')).map(r => r.querySelector('.rating-change').textContent + '|' + r.querySelector('.performance').textContent)`)
	if len(row) != 1 || row[0] != "+3|2800" {
		t.Errorf("the standings' rating columns for Anna Berg: %q, want +3|2800", row)
	}
	dina := eval[[]string](pub, `[...document.querySelectorAll('table.standings tbody tr')].filter(r => r.textContent.includes('Dina Eng')).map(r => r.querySelector('.rating-change').textContent)`)
	if len(dina) != 1 || dina[0] != "+14" {
		t.Errorf("the standings' change for Dina Eng (K 40): %q, want +14", dina)
	}
	pub.shot("standings-rated-390", 390, 844, "")
	pub.shot("standings-rated-1366", 1366, 900, "")
	pub.do("open the cards", chromedp.Navigate(e.hs.URL+"/e/"+eventID+"/cards"))
	pub.wait("the cards", `document.querySelector('section.card .rating-total')`)
	card := eval[string](pub, `(() => { const c = [...document.querySelectorAll('section.card')].find(s => s.textContent.includes('Anna Berg')); return c.querySelector('tbody .rating-change').textContent + '|' + c.querySelector('.rating-total').textContent; })()`)
	if card != "+3.0|rating change +3, performance 2800" {
		t.Errorf("Anna Berg's card: %q", card)
	}
	pub.shot("cards-rated-390", 390, 844, "")
	pub.shot("cards-rated-1366", 1366, 900, "")
}

// TestBrowserDirectorRatingListRefused: a director who picks a file that is
// no rating list reads why, every problem of it, in the page's language.
// The page showed the HTTP status's English words ("Bad Request"), since
// it looked for the message where the server does not put it.
func TestBrowserDirectorRatingListRefused(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Rated Open","variant":"international","system":"swiss","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Anna Berg","federation":"NOR","fed_id":"1001"},{"name":"Bo Dahl","federation":"DEN","fed_id":"2002"}]}`, 200)
	file := filepath.Join(t.TempDir(), "not-a-list.csv")
	if err := os.WriteFile(file, []byte("hello;world\n1;2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newPage(t, "director")
	d.do("open the director's link", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the ratings section", `window.arbiterDirector && arbiterDirector.ready && document.getElementById('rl-file')`)
	d.do("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#rl-file"), []string{file}))
	d.wait("the refusal", `document.getElementById('rl-status').textContent !== ''`)
	got := eval[string](d, `document.getElementById('rl-status').textContent`)
	// A column missing from the header is a problem of line 1, at no
	// column: the page said "CSV line 1, column 0".
	for _, want := range []string{"CSV line 1: no id column", "no rating column", "no name column"} {
		if !strings.Contains(got, want) {
			t.Errorf("the director reads %q; want %q in it", got, want)
		}
	}
	if strings.Contains(got, "column 0") {
		t.Errorf("the director reads %q: a column 0", got)
	}
	d.shot("director-ratinglist-refused-390", 390, 844, "#ratings-box")
	d.shot("director-ratinglist-refused-1366", 1366, 900, "#ratings-box")
}

// TestBrowserDirectorRatingListThroughProxy follows a Russian director
// whose server stands behind a proxy that keeps its default body limit
// (nginx: 1 MB, answered with its own HTML page): the federation's list of
// 2 MB is refused by the proxy, not by the arbiter. The page said "HTTP
// 413"; it now says, in Russian, that the file is too large for the proxy
// and what its operator must set. The proxy here is a reverse proxy of
// net/http with nginx's answer, in front of the real server.
func TestBrowserDirectorRatingListThroughProxy(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Rated Open","variant":"international","system":"swiss","rounds":3}`)
	back, err := url.Parse(e.hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(back)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > 1<<20 {
			// Read the body first, as nginx does before it answers (its
			// lingering close): a server that answers an upload it has
			// not read closes the connection, and the browser may see the
			// reset instead of the answer.
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			io.WriteString(w, "<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>\n")
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	var csv strings.Builder
	csv.WriteString("id;name;federation;rating\n")
	for i := 0; csv.Len() < 2<<20; i++ {
		fmt.Fprintf(&csv, "%d;Player Number %d;NED;%d\n", 100000+i, i, 1200+i%1000)
	}
	file := filepath.Join(t.TempDir(), "federation.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	d := newPage(t, "director")
	d.do("open the director's link", chromedp.Navigate(front.URL+"/d/"+tok))
	eval[bool](d, `(localStorage.setItem('arbiter.lang', 'ru'), true)`)
	d.do("reload in Russian", chromedp.Reload())
	d.wait("the ratings section in Russian", `document.documentElement.lang === 'ru' && window.arbiterDirector && arbiterDirector.ready && document.getElementById('rl-file')`)
	d.do("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#rl-file"), []string{file}))
	d.wait("the refusal", `document.getElementById('rl-status').textContent !== ''`)
	got := eval[string](d, `document.getElementById('rl-status').textContent`)
	for _, want := range []string{"слишком велик для прокси", "client_max_body_size 16m"} {
		if !strings.Contains(got, want) {
			t.Errorf("the director reads %q; want %q in it", got, want)
		}
	}
	d.shot("director-ratinglist-proxy-390", 390, 844, "#ratings-box")
	d.shot("director-ratinglist-proxy-1366", 1366, 900, "#ratings-box")
}
