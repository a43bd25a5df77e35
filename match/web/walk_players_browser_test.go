package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The walks of seed 001's players: people who get a link and play a
// refereed game in their browser, each at a phone's width and a desktop's,
// in the language they chose.

// speaks sets the page's language as the chooser does, remembered in
// localStorage for the pages opened after it.
func speaks(p *page, url, lang string) {
	p.t.Helper()
	p.do("open "+url, chromedp.Navigate(url))
	eval[bool](p, `(localStorage.setItem('arbiter.lang', '`+lang+`'), true)`)
}

// inView reports whether the element sel is shown whole in the viewport
// as the page stands (no scrolling), and where its centre is.
func inView(p *page, sel string) (bool, float64, float64) {
	p.t.Helper()
	r := eval[[]float64](p, `(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect();
		return [r.top, r.bottom, r.left, r.right, r.width * r.height]; })()`)
	// A pixel's slack: a layout in fractions of a pixel is scrolled to one.
	ok := r[4] > 0 && r[0] >= -1 && r[1] <= eval[float64](p, `innerHeight`)+1 && r[2] >= 0 && r[3] <= eval[float64](p, `innerWidth`)
	return ok, (r[2] + r[3]) / 2, (r[0] + r[1]) / 2
}

// TestBrowserDrawOfferOnPhone: a Dutch club game, 10+5, international
// draughts. White plays 32-28 and offers a draw; Black, on a 390 px
// phone, reads "Uw tegenstander biedt remise aan." with its Aannemen and
// Afwijzen buttons under the board, in view without scrolling, and taps
// Aannemen: both see the draw. The buttons were with the other controls,
// below the fold (at 390x844 the referee's "Wit biedt remise aan." showed
// and nothing to answer it with). Screenshots at 390 and 1366 px.
func TestBrowserDrawOfferOnPhone(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","time_control":"600+5","white":"Anna","black":"Bram"}`)
	white, black := newPage(t, "white-nl"), newPage(t, "black-nl")
	speaks(white, e.hs.URL+"/", "nl")
	speaks(black, e.hs.URL+"/", "nl")
	black.do("a phone", chromedp.EmulateViewport(390, 844))
	white.open(g.links["white"])
	black.open(g.links["black"])
	white.click("32")
	white.click("28")
	black.waitMoves(1)
	white.do("offer a draw", chromedp.Click(chromedp.CSS("#offer")))
	black.wait("the offer reaches Black", `!document.getElementById('offer-got').hidden`)
	eval[bool](black, `(scrollTo(0, 0), true)`)
	black.shot("walk-offer-nl-390", 390, 844, "")
	for _, sel := range []string{"#offer-got", "#accept", "#decline"} {
		if ok, _, _ := inView(black, sel); !ok {
			t.Errorf("on a 390x844 phone, %s is not in view without scrolling", sel)
		}
	}
	if got := text(black, "#offer-got"); !strings.Contains(got, "Uw tegenstander biedt remise aan.") || !strings.Contains(got, "Aannemen") {
		t.Errorf("the offer reads %q", got)
	}
	// The referee's words are said once, with the buttons.
	if eval[bool](black, `!document.getElementById('speech').hidden && document.getElementById('speech').textContent.includes('remise')`) {
		t.Errorf("the offer is said twice: %q", text(black, "#speech"))
	}
	// The player who offered, and a spectator, have nothing to answer.
	if !eval[bool](white, `document.getElementById('offer-got').hidden && !document.getElementById('offer-sent').hidden`) {
		t.Error("White, who offered, is asked to answer its own offer")
	}
	watcher := newPage(t, "spectator-nl")
	speaks(watcher, e.hs.URL+"/", "nl")
	watcher.open(g.links["spectator"])
	if eval[bool](watcher, `document.getElementById('offer-got').offsetParent !== null`) {
		t.Error("the spectator is asked to answer the offer")
	}
	black.shot("walk-offer-nl-1366", 1366, 900, "")
	black.do("back to the phone", chromedp.EmulateViewport(390, 844))
	// The referee's box goes back under the board on the media query's
	// change event, after the viewport's.
	black.wait("the phone's layout", `innerWidth === 390 && document.getElementById('error').nextElementSibling === document.getElementById('referee')`)
	eval[bool](black, `(scrollTo(0, 0), true)`)
	ok, x, y := inView(black, "#accept")
	if !ok {
		t.Fatalf("Aannemen is out of view at 390 px")
	}
	black.do("tap Aannemen", chromedp.MouseClickXY(x, y))
	for _, p := range []*page{white, black, watcher} {
		p.wait("the draw is shown", `!document.getElementById('banner').hidden`)
		if got := text(p, "#banner"); !strings.Contains(got, "Remise (1-1)") {
			t.Errorf("%s's banner reads %q", p.name, got)
		}
	}
	if eval[bool](black, `document.getElementById('offer-got').offsetParent !== null`) {
		t.Error("the offer is still asked after the draw")
	}
	black.shot("walk-offer-accepted-nl-390", 390, 844, "")
}

// TestBrowserFrenchTurnLine: French players open a new international
// game, 5+3. White's page reads "À vous de jouer : les Blancs commencent ;
// variante : Dames internationales 10×10 (FMJD)", Black's "Trait aux
// Blancs : Dames internationales 10×10 (FMJD)", French typography with a space
// before each colon and no capital in mid-sentence; the page joined the
// two halves with an English ": " ("À vous de jouer: Les Blancs
// commencent en Dames internationales"). English keeps "Your move: White
// starts in International draughts 10×10 (FMJD)". Screenshots at 390
// and 1366 px.
func TestBrowserFrenchTurnLine(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","time_control":"300+3","white":"Aline","black":"Bruno"}`)
	white, black := newPage(t, "white-fr"), newPage(t, "black-fr")
	speaks(white, e.hs.URL+"/", "fr")
	speaks(black, e.hs.URL+"/", "fr")
	black.do("a phone", chromedp.EmulateViewport(390, 844))
	white.open(g.links["white"])
	black.open(g.links["black"])
	const start = "les Blancs commencent ; variante : Dames internationales 10×10 (FMJD)"
	if got := text(white, "#turn"); got != "À vous de jouer : "+start {
		t.Errorf("White's turn line reads %q", got)
	}
	// Black's line names the side to move: the variant alone follows (it
	// said "Trait aux Blancs : les Blancs commencent ; ...", the side twice).
	if got := text(black, "#turn"); got != "Trait aux Blancs : Dames internationales 10×10 (FMJD)" {
		t.Errorf("Black's turn line reads %q", got)
	}
	black.shot("walk-turn-fr-390", 390, 844, "")
	white.shot("walk-turn-fr-1366", 1366, 900, "")
	// After the first move the line is the turn alone.
	white.click("32")
	white.click("28")
	black.waitMoves(1)
	black.wait("Black is told to move", `document.getElementById('turn').textContent === 'À vous de jouer'`)

	en := newPage(t, "white-en")
	speaks(en, e.hs.URL+"/", "en")
	en.open(e.create(`{"variant":"international","white":"Ann","black":"Bob"}`).links["white"])
	if got := text(en, "#turn"); got != "Your move: White starts in International draughts 10×10 (FMJD)" {
		t.Errorf("the English turn line reads %q", got)
	}
}

// TestBrowserCreateOffline: a Russian club player fills in the create
// page on a phone (Russian draughts, 10+5) and presses «Создать партию»
// as the phone loses its network. The page says, in Russian, that the
// game was not created for want of a connection and to try again; it
// said "TypeError: Failed to fetch", the browser's words in English (a
// longer refusal, such as a mistyped FEN's, ran below a phone's fold).
// Back online, the same button creates the game. Screenshots at 390 and
// 1366 px.
func TestBrowserCreateOffline(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	p := newPage(t, "creator-ru")
	speaks(p, e.hs.URL+"/", "ru")
	p.do("a phone", chromedp.EmulateViewport(390, 844))
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	p.wait("the variants load", `document.documentElement.lang === 'ru' && document.querySelector('#variant option[value="russian"]')`)
	p.do("fill in the form",
		chromedp.SetValue(chromedp.CSS("#variant"), "russian"),
		chromedp.SetValue(chromedp.CSS("#white"), "Анна"),
		chromedp.SetValue(chromedp.CSS("#black"), "Борис"),
		chromedp.SendKeys(chromedp.CSS("#tc"), "10+5"))
	p.wait("the clock is read", `document.getElementById('tc-echo').textContent.startsWith('10 мин каждому')`)
	p.net(true)
	p.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the failure is shown", `!document.getElementById('create-error').hidden && !document.getElementById('create-button').disabled`)
	got := text(p, "#create-error")
	if !strings.Contains(got, "нет связи с сервером") || strings.Contains(got, "Failed") || strings.Contains(got, "Error") {
		t.Errorf("the create page offline says %q", got)
	}
	if ok, _, _ := inView(p, "#create-error"); !ok {
		t.Error("the failure is not in view whole where the player pressed the button")
	}
	if ok, _, _ := inView(p, "#create-button"); !ok {
		t.Error("the button to try again is out of view")
	}
	p.shot("walk-create-offline-ru-390", 390, 844, "#create-error")
	p.shot("walk-create-offline-ru-1366", 1366, 900, "#create-error")
	p.net(false)
	p.do("create again", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the links are shown", `!document.getElementById('links').hidden && document.getElementById('create-error').hidden`)
	if link := eval[string](p, `document.getElementById('link-black').value`); !strings.Contains(link, "/g/") {
		t.Errorf("Black's link is %q", link)
	}
}

// TestBrowserDutchOneRegister: a Dutch player on a phone, addressed as
// "u" by the whole game page ("U bent aan zet", "Uw tegenstander biedt
// remise aan."), loses the network mid-game and tries a move and a draw
// offer: the page says "Uw zet 32-28 is niet verzonden: … Controleer uw
// verbinding …" and "Niet verzonden: … Controleer uw verbinding …". Those
// two, and the game that cannot be loaded, switched to "je" ("Je zet",
// "Controleer je verbinding"), as a club's notice switching from "u" to
// "je" mid-sentence would. Screenshots at 390 and 1366 px.
func TestBrowserDutchOneRegister(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","time_control":"300+3","white":"Anna","black":"Bram"}`)
	white := newPage(t, "white-nl")
	speaks(white, e.hs.URL+"/", "nl")
	white.do("a phone", chromedp.EmulateViewport(390, 844))
	white.open(g.links["white"])
	white.wait("the page speaks Dutch", `document.getElementById('turn').textContent.startsWith('U bent aan zet')`)
	white.net(true)
	white.wait("the connection is lost", `!document.getElementById('conn').hidden`)
	white.click("32")
	white.click("28")
	white.wait("the move is not sent", `!document.getElementById('error').hidden`)
	if got := white.text("error"); got != "Uw zet 32-28 is niet verzonden: geen verbinding met de server. Controleer uw verbinding en speel hem opnieuw." {
		t.Errorf("the move not sent reads %q", got)
	}
	white.shot("walk-not-sent-nl-390", 390, 844, "")
	white.shot("walk-not-sent-nl-1366", 1366, 900, "")
	white.do("offer a draw", chromedp.Click(chromedp.CSS("#offer")))
	white.wait("the offer is not sent", `document.getElementById('error').textContent.startsWith('Niet verzonden')`)
	if got := white.text("error"); got != "Niet verzonden: geen verbinding met de server. Controleer uw verbinding en probeer het opnieuw." {
		t.Errorf("the offer not sent reads %q", got)
	}
	// A link whose game does not come: the network is lost as it loads.
	lost := newPage(t, "black-nl")
	speaks(lost, e.hs.URL+"/", "nl")
	lost.loseAnswers("*/api/g/*")
	lost.do("open Black's link", chromedp.Navigate(g.links["black"]))
	lost.wait("the page says it cannot load", `document.getElementById('fatal') && !document.getElementById('fatal').hidden`)
	if got := lost.text("fatal"); got != "De partij kon niet worden geladen: geen verbinding met de server. Controleer uw verbinding en laad de pagina opnieuw." {
		t.Errorf("the game that cannot be loaded reads %q", got)
	}
}

// TestBrowserTypedMoveExample: a Russian player on a 360 px phone reads,
// in the box for a typed move of a game of Russian draughts, an example in
// the board's own notation ("c3-d4, c3:e5"), types the opening move as
// shown and it is played, and a capture written with its colon. The box showed "32-28, 28x19", square numbers
// that a Russian board (a1..h8) does not have. An international game
// keeps "32-28, 28x19". Screenshots at 360 and 1366 px.
func TestBrowserTypedMoveExample(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"russian","time_control":"600+5","white":"Анна","black":"Борис"}`)
	p := newPage(t, "white-ru")
	speaks(p, e.hs.URL+"/", "ru")
	p.do("a phone", chromedp.EmulateViewport(360, 740))
	p.open(g.links["white"])
	if got := eval[string](p, `document.getElementById('pdn-input').placeholder`); got != "c3-d4, c3:e5" {
		t.Errorf("the Russian game's typed-move example is %q", got)
	}
	p.shot("walk-typed-example-ru-360", 360, 740, "#pdn-form")
	p.shot("walk-typed-example-ru-1366", 1366, 900, "")
	p.do("type the move as the example shows", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "c3-d4\r"))
	p.waitMoves(1)
	if got := eval[string](p, `arbiterGame.moves[0].text`); got != "c3-d4" {
		t.Errorf("the typed move was played as %q", got)
	}
	// A capture typed with the example's colon.
	if code, body := e.act(g.tokens["black"], `{"kind":"move","move":"f6-e5"}`); code != 200 {
		t.Fatalf("Black's f6-e5: %d %s", code, body)
	}
	p.waitMoves(2)
	p.do("type a capture", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "d4:f6\r"))
	p.waitMoves(3)
	if got := eval[string](p, `arbiterGame.moves[2].text`); got != "d4:f6" {
		t.Errorf("the typed capture was played as %q", got)
	}
	p.open(e.create(`{"variant":"international"}`).links["white"])
	if got := eval[string](p, `document.getElementById('pdn-input').placeholder`); got != "32-28, 28x19" {
		t.Errorf("the international game's typed-move example is %q", got)
	}
}

// TestBrowserPolicyNamedBeforehand: a Dutch club player creates an
// international game with a 10+5 clock on a phone and leaves the
// illegal-move policy to the variant, as most will. Before any illegal
// move both players read what happens after one: "Toernooiregels voor
// onreglementaire zetten: de tegenstander beslist: laten herstellen of
// laten staan." The page said "het beleid van de bond voor de variant"
// (the federation's policy for the variant), which a club player cannot
// look up mid-game. An English checkers game names WCDF's warning, and a
// friendly game says it is friendly. Screenshots at 390 and 1366 px.
func TestBrowserPolicyNamedBeforehand(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	cr := newPage(t, "creator-nl")
	speaks(cr, e.hs.URL+"/", "nl")
	cr.do("a phone", chromedp.EmulateViewport(390, 844))
	cr.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	cr.wait("the variants load", `document.documentElement.lang === 'nl' && document.querySelector('#variant option[value="international"]')`)
	cr.do("fill in the form",
		chromedp.SetValue(chromedp.CSS("#variant"), "international"),
		chromedp.SetValue(chromedp.CSS("#white"), "Anna"),
		chromedp.SetValue(chromedp.CSS("#black"), "Bram"),
		chromedp.SendKeys(chromedp.CSS("#tc"), "10+5"))
	cr.wait("the clock is read and the rules follow it", `document.getElementById('tc-echo').textContent.startsWith('10 minuten') && document.getElementById('mode-tournament').checked`)
	cr.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	cr.wait("the links are shown", `!document.getElementById('links').hidden`)
	links := eval[map[string]string](cr, `({white: document.getElementById('link-white').value, black: document.getElementById('link-black').value})`)
	const want = "Toernooiregels voor onreglementaire zetten: de tegenstander beslist: laten herstellen of laten staan."
	for _, role := range []string{"white", "black"} {
		p := newPage(t, role+"-nl")
		speaks(p, e.hs.URL+"/", "nl")
		p.do("a phone", chromedp.EmulateViewport(390, 844))
		p.open(links[role])
		if got := p.text("mode-note"); got != want {
			t.Errorf("%s's page says %q before any illegal move", role, got)
		}
		if role == "black" {
			p.shot("walk-policy-nl-390", 390, 844, "#mode-note")
			p.shot("walk-policy-nl-1366", 1366, 900, "")
		}
	}
	en := newPage(t, "english")
	en.open(e.create(`{"variant":"english","time_control":"300+3"}`).links["black"])
	if got := en.text("mode-note"); got != "Tournament rules for illegal moves: WCDF: a warning first, the second illegal move loses." {
		t.Errorf("the English checkers game says %q", got)
	}
	// After the colon no capital in mid-sentence (it is the create page's
	// label for the choice), in French and Russian as in Dutch.
	for _, c := range []struct{ lang, policy, want string }{
		{"fr", "opponent-decides", "Règles de tournoi pour les coups irréguliers : l'adversaire décide : rectifier ou laisser valoir."},
		{"ru", "strict", "Турнирные правила для неправильных ходов: строго: неправильный ход — поражение."},
	} {
		p := newPage(t, "player-"+c.lang)
		speaks(p, e.hs.URL+"/", c.lang)
		p.open(e.create(`{"variant":"russian","time_control":"300+3","policy":"` + c.policy + `"}`).links["white"])
		if got := p.text("mode-note"); got != c.want {
			t.Errorf("the %s page says %q", c.lang, got)
		}
	}
	en.open(e.create(`{"variant":"international","mode":"friendly"}`).links["white"])
	if got := en.text("mode-note"); !strings.HasPrefix(got, "Friendly game") {
		t.Errorf("the friendly game says %q", got)
	}
}

// TestBrowserAutomaticDrawWords: two kings shuffle until the position
// stands for the third time; the referee draws the game by itself and the
// players read it in good Dutch and Russian: "Automatische remise: de
// stelling is 3 keer voorgekomen …" (it read "Automatisch remise", an
// adjective left uninflected) and "Автоматическая ничья: позиция
// возникла в 3-й раз …" (it read "Ничья автоматически"). Screenshots at
// 390 and 1366 px.
func TestBrowserAutomaticDrawWords(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	for _, c := range []struct {
		lang, variant, fen, want string
		moves                    [][2]string
	}{
		{"nl", "international", "W:WK46:BK1", "Automatische remise: de stelling is 3 keer voorgekomen",
			[][2]string{{"46", "41"}, {"1", "7"}, {"41", "46"}, {"7", "1"}}},
		{"ru", "russian", "W:WKa1:BKh2", "Автоматическая ничья: позиция возникла в 3-й раз",
			[][2]string{{"a1", "b2"}, {"h2", "g1"}, {"b2", "a1"}, {"g1", "h2"}}},
	} {
		g := e.create(`{"variant":"` + c.variant + `","fen":"` + c.fen + `","time_control":"300+3","white":"Ann","black":"Bob"}`)
		white, black := newPage(t, "white-"+c.lang), newPage(t, "black-"+c.lang)
		speaks(white, e.hs.URL+"/", c.lang)
		speaks(black, e.hs.URL+"/", c.lang)
		black.do("a phone", chromedp.EmulateViewport(390, 844))
		white.open(g.links["white"])
		black.open(g.links["black"])
		// Out and back twice: the start position stands for the third time.
		for i := 0; i < 8; i++ {
			p, mv := white, c.moves[i%4]
			if i%2 == 1 {
				p = black
			}
			p.click(mv[0])
			p.click(mv[1])
			white.waitMoves(i + 1)
			black.waitMoves(i + 1)
		}
		for _, p := range []*page{white, black} {
			p.wait("the draw is shown", `!document.getElementById('banner').hidden`)
			if got := p.text("banner"); !strings.Contains(got, c.want) {
				t.Errorf("%s's banner reads %q", p.name, got)
			}
		}
		black.shot("walk-auto-draw-"+c.lang+"-390", 390, 844, "#banner")
		white.shot("walk-auto-draw-"+c.lang+"-1366", 1366, 900, "")
	}
}

// TestBrowserNotAwayToOneself: Black, whose page speaks Russian, opens the
// link on a phone whose network is slow: the board is drawn before the
// event stream is open, and Black's own bar said «не в сети» (away) beside
// "Борис (вы)" until it was. It no longer does, then or after; White, who
// has not opened the link, is shown away. Screenshots at 390 and 1366 px.
func TestBrowserNotAwayToOneself(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"russian","time_control":"600+5","white":"Анна","black":"Борис"}`)
	black := newPage(t, "black-ru")
	speaks(black, e.hs.URL+"/", "ru")
	black.do("a phone", chromedp.EmulateViewport(390, 844))
	held, release := black.hold("*/events*")
	black.do("open Black's link", chromedp.Navigate(g.links["black"]))
	stream := nextHeld(t, held, "the event stream")
	black.wait("the board is drawn", `window.arbiterGame && arbiterGame.snap && !document.getElementById('game').hidden`)
	away := `[document.querySelector('.player-black .away').hidden, document.querySelector('.player-white .away').hidden]`
	if got := eval[[]bool](black, away); !got[0] || got[1] {
		t.Errorf("before the stream opens: Black's own bar hidden-away=%v, White's=%v; want Black not away, White away", got[0], got[1])
	}
	black.shot("walk-not-away-ru-390", 390, 844, "")
	release(stream)
	black.wait("the stream is open", `arbiterGame.es && arbiterGame.es.readyState === 1 && arbiterGame.state.presence && arbiterGame.state.presence.black === true`)
	if got := eval[[]bool](black, away); !got[0] || got[1] {
		t.Errorf("with the stream open: Black's own bar hidden-away=%v, White's=%v", got[0], got[1])
	}
	black.shot("walk-not-away-ru-1366", 1366, 900, "")
}

// TestBrowserRussianCaptureMark: a Russian player takes two pieces by
// taps, c3, e5, g7, on a 360 px phone. The capture being entered reads
// «Взятие: c3:e5» and, on its way, «Отправляем ход c3:e5:g7…», with the
// colon Russian players write and the record shows (c3:g7); it read
// c3xe5xg7. An international capture keeps its x. Screenshots at 360 and
// 1366 px.
func TestBrowserRussianCaptureMark(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"russian","fen":"W:Wc3:Bd4,f6,a7","time_control":"600+5","white":"Анна","black":"Борис"}`)
	p := newPage(t, "white-ru")
	speaks(p, e.hs.URL+"/", "ru")
	p.do("a phone", chromedp.EmulateViewport(360, 740))
	p.open(g.links["white"])
	held, release := p.hold("*/act")
	p.click("c3")
	p.click("e5")
	p.wait("the capture goes on", `!document.getElementById('entry').hidden`)
	if got := p.text("entry-text"); got != "Взятие: c3:e5" {
		t.Errorf("the capture being entered reads %q", got)
	}
	p.click("g7")
	act := nextHeld(t, held, "the capture")
	p.wait("the capture is on its way", `document.getElementById('turn').textContent.startsWith('Отправляем')`)
	if got := p.text("turn"); got != "Отправляем ход c3:e5:g7…" {
		t.Errorf("the capture on its way reads %q", got)
	}
	p.shot("walk-capture-mark-ru-360", 360, 740, "")
	release(act)
	p.waitMoves(1)
	if got := eval[string](p, `arbiterGame.moves[0].text`); got != "c3:g7" {
		t.Errorf("the capture was recorded as %q", got)
	}
	p.shot("walk-capture-mark-ru-1366", 1366, 900, "")

	// International: 37, 28, 19 over 32 and 23, with its x.
	q := newPage(t, "white-en")
	q.open(e.create(`{"variant":"international","fen":"W:W37:B32,23,5"}`).links["white"])
	q.click("37")
	q.click("28")
	q.wait("the capture goes on", `!document.getElementById('entry').hidden`)
	if got := q.text("entry-text"); !strings.Contains(got, "37x28") {
		t.Errorf("the international capture being entered reads %q", got)
	}
	q.click("19")
	q.waitMoves(1)
	if got := eval[string](q, `arbiterGame.moves[0].text`); got != "37x19" {
		t.Errorf("the international capture was recorded as %q", got)
	}
}

// TestBrowserFrenchClockWords: a French player chooses the clock on the
// create page, on a phone: the Bullet button (1+1) and then 5+3 typed.
// The page says it back in French that agrees in number: "1 minute
// chacun, plus 1 seconde par coup." and "5 minutes chacun, plus 3
// secondes par coup."; it read "1 seconde ajoutées par coup" (a plural
// past participle after one second). The WCDF button (30/60) is explained
// as "coups / minutes"; it read "minutes, puis secondes par coup". The
// game's clocks show 5:00.
// Screenshots at 390 and 1366 px.
func TestBrowserFrenchClockWords(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	p := newPage(t, "creator-fr")
	speaks(p, e.hs.URL+"/", "fr")
	p.do("a phone", chromedp.EmulateViewport(390, 844))
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	p.wait("the presets load", `document.documentElement.lang === 'fr' && document.querySelector('#tc-presets button')`)
	p.do("Bullet", chromedp.Click(chromedp.CSS("#tc-presets button:first-child")))
	p.wait("the clock is read", `document.getElementById('tc').value === '1+1' && document.getElementById('tc-echo').textContent.startsWith('1 minute')`)
	if got := p.text("tc-echo"); got != "1 minute chacun, plus 1 seconde par coup." {
		t.Errorf("1+1 reads %q", got)
	}
	eval[bool](p, `(document.getElementById('tc').value = '', true)`)
	p.do("type 5+3", chromedp.SendKeys(chromedp.CSS("#tc"), "5+3"))
	p.wait("the clock is read", `document.getElementById('tc-echo').textContent.startsWith('5 minutes')`)
	if got := p.text("tc-echo"); got != "5 minutes chacun, plus 3 secondes par coup." {
		t.Errorf("5+3 reads %q", got)
	}
	// WCDF's 30 moves in an hour: the moves come first, not "minutes,
	// then seconds per move".
	p.do("WCDF", chromedp.Click(chromedp.CSS(`#tc-presets button[data-preset="wcdf"]`)))
	p.wait("the clock is read", `document.getElementById('tc-echo').textContent.startsWith('30 coups')`)
	if got := p.text("tc-read"); got != "Lu comme l'écrivent les joueurs : coups / minutes, puis secondes par coup. Conservé en PDN 30/3600." {
		t.Errorf("30/60 is explained as %q", got)
	}
	p.shot("walk-clock-wcdf-fr-390", 390, 844, "#tc")
	eval[bool](p, `(document.getElementById('tc').value = '', true)`)
	p.do("type 5+3 again", chromedp.SendKeys(chromedp.CSS("#tc"), "5+3"))
	p.wait("the clock is read", `document.getElementById('tc-echo').textContent.startsWith('5 minutes')`)
	if got := p.text("tc-read"); !strings.Contains(got, ": minutes, puis secondes par coup") {
		t.Errorf("5+3 is explained as %q", got)
	}
	p.shot("walk-clock-fr-390", 390, 844, "#tc")
	p.shot("walk-clock-fr-1366", 1366, 900, "#tc")
	p.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the links are shown", `!document.getElementById('links').hidden`)
	follow(p, "#open-white")
	p.wait("the game loads", `window.arbiterGame && arbiterGame.snap && !document.getElementById('game').hidden`)
	if got := eval[string](p, `Array.from(document.querySelectorAll('.clock')).map(c => c.textContent).join(' ')`); got != "5:00 5:00" {
		t.Errorf("the clocks of a 5+3 game show %q", got)
	}
}

// TestBrowserCreatePolicyForVariant: a Dutch creator on a phone picks
// international draughts with a 10+5 clock; tournament rules are chosen
// for a timed game. The page said tournament rules meant "waarschuwingen,
// dan is de partij verloren" (warnings, then the game is lost), which is
// WCDF's policy, while an international game lets the opponent decide.
// The rules' choice no longer claims it, and under the policy's default a
// line reads "Voor deze variant: de tegenstander beslist: …"; for English
// checkers "…: WCDF: eerst een waarschuwing, …". Screenshots at
// 390 and 1366 px.
func TestBrowserCreatePolicyForVariant(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	p := newPage(t, "creator-nl")
	speaks(p, e.hs.URL+"/", "nl")
	p.do("a phone", chromedp.EmulateViewport(390, 844))
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	p.wait("the variants load", `document.documentElement.lang === 'nl' && document.querySelector('#variant option[value="international"]')`)
	p.do("choose international draughts, 10+5",
		chromedp.SetValue(chromedp.CSS("#variant"), "international"),
		chromedp.SendKeys(chromedp.CSS("#tc"), "10+5"))
	eval[bool](p, `(document.getElementById('variant').dispatchEvent(new Event('change')), true)`)
	p.wait("tournament rules follow the clock", `document.getElementById('mode-tournament').checked && !document.getElementById('policy-box').hidden`)
	if got := eval[string](p, `document.getElementById('mode-tournament').parentElement.textContent.trim()`); strings.Contains(got, "waarschuwingen") {
		t.Errorf("the tournament rules' choice reads %q: warnings are WCDF's, not FMJD's", got)
	}
	if got := p.text("policy-read"); got != "Voor deze variant: de tegenstander beslist: laten herstellen of laten staan." {
		t.Errorf("the default policy for international draughts reads %q", got)
	}
	p.shot("walk-create-policy-nl-390", 390, 844, "#policy-box")
	p.shot("walk-create-policy-nl-1366", 1366, 900, "#policy-box")
	p.do("choose English checkers", chromedp.SetValue(chromedp.CSS("#variant"), "english"))
	eval[bool](p, `(document.getElementById('variant').dispatchEvent(new Event('change')), true)`)
	p.wait("the default follows the variant", `document.getElementById('policy-read').textContent.includes('WCDF')`)
	if got := p.text("policy-read"); got != "Voor deze variant: WCDF: eerst een waarschuwing, de tweede onreglementaire zet verliest." {
		t.Errorf("the default policy for English checkers reads %q", got)
	}
	// A policy chosen is named by the select itself; the line goes.
	p.do("choose strict", chromedp.SetValue(chromedp.CSS("#policy"), "strict"))
	eval[bool](p, `(document.getElementById('policy').dispatchEvent(new Event('change')), true)`)
	if eval[bool](p, `!document.getElementById('policy-read').hidden`) {
		t.Errorf("with a policy chosen the line still reads %q", p.text("policy-read"))
	}
	p.do("back to the default", chromedp.SetValue(chromedp.CSS("#policy"), ""))
	eval[bool](p, `(document.getElementById('policy').dispatchEvent(new Event('change')), true)`)
	// A switch of language keeps the default named.
	p.do("choose French", chromedp.SetValue(chromedp.CSS("#lang"), "fr"))
	eval[bool](p, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	p.wait("the page speaks French", `document.documentElement.lang === 'fr'`)
	if got := p.text("policy-read"); got != "Pour cette variante : WCDF : d'abord un avertissement, le deuxième coup irrégulier perd." {
		t.Errorf("in French the default policy reads %q", got)
	}
}
