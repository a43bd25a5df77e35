package web

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// browserSpeaks sets the page's browser to speak lang (a locale such as
// "ru-RU"), as a person's browser set to that language does:
// navigator.languages and the Accept-Language of every request, and the
// locale of dates and numbers.
func browserSpeaks(p *page, locale string) {
	p.t.Helper()
	primary, _, _ := strings.Cut(locale, "-")
	p.do("the browser speaks "+locale, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ua := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
		if _, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: locale + "," + primary + ";q=0.9"}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: locale})
		return err
	}))
}

// TestBrowserDeadAddressInLanguage: readers whose browsers speak Dutch
// and Russian follow addresses that lead nowhere: a public standings link
// with its event's id mistyped, the pairings of a round not published
// yet, and an address the site does not have. Each page says so in the
// reader's language, with <html lang> and the site's name as its title;
// it was the JSON error body, in English. A program asking the same
// address still gets the JSON. Screenshots at 390 and 1366 px.
func TestBrowserDeadAddressInLanguage(t *testing.T) {
	browserTest(t)
	e, id := sheetEventEnv(t)
	for _, c := range []struct {
		locale, lang, app, says string
	}{
		{"nl-NL", "nl", "Dam-arbiter", "Niet gevonden"},
		{"ru-RU", "ru", "Шашечный судья", "Не найдено"},
	} {
		p := newPage(t, "reader-"+c.lang)
		browserSpeaks(p, c.locale)
		for _, path := range []string{"/e/" + id + "x/standings", "/e/" + id + "/round/2", "/standings"} {
			p.do("open "+path, chromedp.Navigate(e.hs.URL+path))
			p.wait(path+" says it is not found", `document.body && document.body.innerText.trim() !== ''`)
			if got := eval[string](p, `document.documentElement.lang + '|' + document.title`); got != c.lang+"|"+c.app {
				t.Errorf("%s in %s: lang|title %q, want %q", path, c.lang, got, c.lang+"|"+c.app)
			}
			if got := eval[string](p, `document.body.innerText`); !strings.Contains(got, c.says) || strings.Contains(got, "Not found") || strings.Contains(got, `"error"`) {
				t.Errorf("%s in %s reads %q", path, c.lang, got)
			}
		}
		p.shot("dead-address-"+c.lang+"-390", 390, 844, "")
		p.shot("dead-address-"+c.lang+"-1366", 1366, 900, "")
	}
	resp, body := e.do("GET", "/e/"+id+"x/standings", "", "Accept-Language", "ru")
	if resp.StatusCode != http.StatusNotFound || errorCode(body) != codeNotFound {
		t.Errorf("a program's request: %d %s", resp.StatusCode, body)
	}
}

// TestRateLimitPageInLanguage: a Russian reader who reloads a public page
// past the server's request limit reads, in Russian, that there were too
// many requests (the page their browser shows, not JSON in English); the
// client's own fetch of the same address gets the JSON it reads.
func TestRateLimitPageInLanguage(t *testing.T) {
	// One request's worth of tokens a thousand seconds: the second
	// request of the test is refused however slow the machine.
	e := newEnv(t, Config{Limits: Limits{RequestRate: 0.001, RequestBurst: 1, GameRate: -1}})
	browser := []string{"Accept", "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language", "ru-RU,ru;q=0.9"}
	e.do("GET", "/", "", browser...)
	resp, body := e.do("GET", "/", "", browser...)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("a reload past the limit: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	for _, want := range []string{`<html lang="ru">`, "<title>Шашечный судья</title>", "Слишком много запросов; повторите чуть позже."} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if resp, body := e.do("GET", "/api/variants", "", "Accept-Language", "ru"); resp.StatusCode != http.StatusTooManyRequests || errorCode(body) != codeRateLimited {
		t.Errorf("the client's fetch past the limit: %d %s", resp.StatusCode, body)
	}
}

// TestBrowserTabTitleInLanguage: the name on the browser's tab follows the
// reader's language where the pages left it English. A director whose
// browser speaks Russian opens the create-an-event page: the tab reads
// "Шашечный судья: Новый турнир", and after a switch to Dutch the tab and
// the variants' names are Dutch (they stayed Russian). A Russian player
// whose game link, and whose result link, lost a character reads in the
// tab the site's name in Russian beside the page's Russian "not found"
// (the tab said "Draughts arbiter: game").
func TestBrowserTabTitleInLanguage(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	d := newPage(t, "director-ru")
	browserSpeaks(d, "ru-RU")
	d.do("open the create page", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the variants load", `document.querySelector('#ev-variant option[value="international"]')`)
	if got := eval[string](d, `document.title + '|' + document.querySelector('#ev-variant option[value="international"]').textContent`); got != "Шашечный судья: Новый турнир|Международные шашки 10×10 (ФМЖД)" {
		t.Errorf("the Russian create page: tab|variant %q", got)
	}
	d.do("choose Dutch", chromedp.SetValue(chromedp.CSS("#lang"), "nl"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the page speaks Dutch", `document.documentElement.lang === 'nl' && document.querySelector('h1').textContent === 'Nieuw toernooi'`)
	if got := eval[string](d, `document.title + '|' + document.querySelector('#ev-variant option[value="international"]').textContent`); got != "Dam-arbiter: Nieuw toernooi|Internationaal dammen 10×10 (FMJD)" {
		t.Errorf("after the switch to Dutch: tab|variant %q", got)
	}
	d.shot("director-new-nl-390", 390, 844, "")

	g := e.create(`{"variant":"russian","white":"Анна","black":"Борис"}`)
	p := newPage(t, "player-ru")
	browserSpeaks(p, "ru-RU")
	p.do("open a game link cut short", chromedp.Navigate(g.links["black"][:len(g.links["black"])-1]))
	p.wait("the page says so", `!document.getElementById('fatal').hidden && document.documentElement.lang === 'ru'`)
	if got := eval[string](p, `document.title + '|' + document.getElementById('fatal').textContent`); !strings.HasPrefix(got, "Шашечный судья|Не найдено") {
		t.Errorf("the dead game link: tab|text %q", got)
	}
	p.shot("dead-game-link-ru-390", 390, 844, "")
	p.do("open a mistyped result link", chromedp.Navigate(e.hs.URL+"/r/NOTAPASS"))
	p.wait("the page says so", `document.documentElement.lang === 'ru' && document.body.innerText.includes('ссылка неизвестна')`)
	if got := eval[string](p, `document.title`); got != "Шашечный судья" {
		t.Errorf("the dead result link's tab reads %q", got)
	}
}

// TestBrowserDirectorLanguageCarried: a director at the club's computer,
// whose browser speaks English, switches the director's page to Russian.
// The public pages it links open in Russian: the standings, the printed
// round with its result slips; the live boards, and from them the
// round's pairings. They opened in English, the language of the browser,
// which the sheets read. The same links in a page left in the browser's
// language carry no ?lang=, to stay right for whoever they are sent to.
func TestBrowserDirectorLanguageCarried(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Клубный турнир","variant":"russian","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Анна","rating":2000},{"name":"Борис","rating":1900},{"name":"Вера","rating":1800},{"name":"Глеб","rating":1700}]}`, 200)
	e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	d := newPage(t, "director")
	browserSpeaks(d, "en-GB")
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the page", `window.arbiterDirector && arbiterDirector.ready && document.getElementById('link-standings')`)
	if href := eval[string](d, `document.getElementById('link-standings').href`); strings.Contains(href, "lang=") {
		t.Errorf("in the browser's language the standings' link is %s", href)
	}
	d.do("choose Russian", chromedp.SetValue(chromedp.CSS("#lang"), "ru"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the page in Russian", `document.documentElement.lang === 'ru' && document.getElementById('link-standings').textContent === 'Положение'`)
	d.shot("director-chose-ru-390", 390, 844, "#public-links")
	// The director follows each link in this browser, coming back to the
	// director's page between them.
	back := func() {
		t.Helper()
		d.do("back to the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
		d.wait("the page in Russian", `document.documentElement.lang === 'ru' && window.arbiterDirector && arbiterDirector.ready && document.getElementById('atb-live')`)
	}
	for _, c := range []struct{ link, heading string }{
		{"#link-standings", "Положение"},
		{"#link-print", "Тур 1: жеребьёвка и бланки результатов"},
	} {
		follow(d, c.link)
		d.wait(c.link+" in Russian", `document.documentElement && document.documentElement.lang === 'ru' && document.querySelector('h2') && !location.pathname.startsWith('/d/')`)
		if got := text(d, "h2"); !strings.HasPrefix(got, c.heading) {
			t.Errorf("%s opens with %q, want %q", c.link, got, c.heading)
		}
		back()
	}
	follow(d, "#atb-live")
	d.wait("the boards in Russian", `location.pathname.endsWith('/boards') && document.documentElement.lang === 'ru' && document.querySelector('#rounds a:last-child') && document.querySelector('#rounds a:last-child').textContent !== ''`)
	d.shot("live-boards-chose-ru-390", 390, 844, "")
	follow(d, "#rounds a:last-child")
	d.wait("the pairings in Russian", `location.pathname.endsWith('/round/1') && document.documentElement && document.documentElement.lang === 'ru' && document.querySelector('h2')`)
	if got := text(d, "h2"); !strings.HasPrefix(got, "Жеребьёвка, тур 1") {
		t.Errorf("the live boards' pairings open with %q", got)
	}
	// A spectator, whose browser speaks English, is sent the Russian
	// pairings (the link has ?lang=ru) and follows its "live boards": they
	// are Russian too (the boards page took the browser's language).
	s := newPage(t, "spectator")
	browserSpeaks(s, "en-GB")
	s.do("open the pairings sent", chromedp.Navigate(eval[string](d, `location.href`)))
	s.wait("the pairings", `document.documentElement && document.documentElement.lang === 'ru' && document.querySelector('nav a[href*="/boards"]')`)
	follow(s, `nav a[href*="/boards"]`)
	s.wait("the boards in Russian", `location.pathname.endsWith('/boards') && document.getElementById('progress') && document.getElementById('progress').textContent !== ''`)
	if got := eval[string](s, `document.documentElement.lang + '|' + document.getElementById('title').textContent`); got != "ru|Тур 1: доски" {
		t.Errorf("the spectator's live boards: lang|title %q", got)
	}
}

// TestBrowserDirectorPageNamesInLanguage: a director whose browser speaks
// English switches the director's page to Russian. The public pages'
// navigation is named in Russian for a screen reader ("Public pages" was
// left in English), and the times of the changes' log are written as
// Russian writes them (day.month.year), not in the browser's English
// format.
func TestBrowserDirectorPageNamesInLanguage(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Клубный турнир","variant":"russian","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Анна","rating":2000},{"name":"Борис","rating":1900}]}`, 200)
	d := newPage(t, "director")
	browserSpeaks(d, "en-US")
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the page", `window.arbiterDirector && arbiterDirector.ready && document.querySelector('#audit time')`)
	d.do("choose Russian", chromedp.SetValue(chromedp.CSS("#lang"), "ru"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the page in Russian", `document.documentElement.lang === 'ru' && document.getElementById('link-standings').textContent === 'Положение'`)
	d.do("open the log", chromedp.Click(chromedp.CSS("details:has(#audit) > summary")))
	if got := eval[string](d, `document.getElementById('public-links').getAttribute('aria-label')`); got != "Публичные страницы" {
		t.Errorf("the public pages' navigation is named %q", got)
	}
	if got := text(d, "#audit time"); !regexp.MustCompile(`^\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d$`).MatchString(got) {
		t.Errorf("the log's time reads %q, not as Russian writes it", got)
	}
	d.shot("director-log-ru-390", 390, 844, "#audit")
}

// TestBrowserMoveRuleClaimInLanguage: Anna, Black, reads Russian; Bram,
// White, Dutch. Anna claims the 40-move rule before any move: the
// refusal says in Russian that none of the 80 moves has been played.
// She captures 14x23 and Bram claims at once: his refusal says in Dutch
// that none has been played since 1. 14x23, a capture. Both were English
// sentences inside the translated refusal. Each refusal names the rule it
// was judged on, the WCDF rules' 1.32.2, in the reader's words (the
// arbiter asks "which rule?"). Screenshots at 390 and 1366 px.
func TestBrowserMoveRuleClaimInLanguage(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","fen":"B:W18,K32:B14,K1","white":"Bram","black":"Anna"}`)
	anna, bram := newPage(t, "black"), newPage(t, "white")
	browserSpeaks(anna, "ru-RU")
	browserSpeaks(bram, "nl-NL")
	anna.open(g.links["black"])
	bram.open(g.links["white"])
	anna.wait("Anna's page in Russian", `document.documentElement.lang === 'ru' && !document.getElementById('claim-n').hidden`)
	anna.do("claim the 40-move rule", chromedp.Click(chromedp.CSS("#claim-n")))
	anna.wait("the refusal", `document.querySelector('#log li[data-type="claim"]')`)
	if got := anna.logText("claim"); !strings.Contains(got, "заявление отклонено. Ни один из 80 необходимых ходов (по 40 у каждого) без ходов простыми шашками и без взятий ещё не сыгран с начала записи (правила WCDF, п.\u00a01.32.2).") ||
		strings.Contains(got, "moves") || strings.Contains(got, "rules") {
		t.Errorf("Anna (Russian) reads %q", got)
	}
	anna.click("14")
	anna.click("23")
	bram.waitMoves(1)
	bram.wait("Bram's page in Dutch", `document.documentElement.lang === 'nl' && !document.getElementById('claim-n').hidden`)
	bram.do("claim the 40-move rule", chromedp.Click(chromedp.CSS("#claim-n")))
	bram.wait("the refusal", `document.querySelectorAll('#log li[data-type="claim"]').length === 2`)
	if got := bram.logText("claim"); !strings.Contains(got, "sinds 1. 14x23 (een slag) (WCDF\u2011spelregels,\u00a01.32.2).") || strings.Contains(got, "moves") || strings.Contains(got, "capture") ||
		strings.Contains(got, "rules") {
		t.Errorf("Bram (Dutch) reads %q", got)
	}
	anna.checkLayout("claim-n-ru-390", 390, 844)
	anna.checkLayout("claim-n-ru-1366", 1366, 900)
	bram.checkLayout("claim-n-nl-390", 390, 844)
	bram.checkLayout("claim-n-nl-1366", 1366, 900)
}

// TestBrowserEngineTabInLanguage: a player whose browser speaks Russian
// creates a 5+3 game against the built-in engine on the create page and
// opens White's board. The tab names the engine as the board does,
// "Встроенная программа: начальный уровень", not by its internal name
// "sparring-beginner".
func TestBrowserEngineTabInLanguage(t *testing.T) {
	browserTest(t)
	e := newEngineEnv(t, online.BuiltInEngines(arbiterBinary(t)))
	p := newPage(t, "player")
	browserSpeaks(p, "ru-RU")
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	p.wait("the engines are offered", `document.documentElement.lang === 'ru' && document.querySelector('#engine option[value="sparring-beginner"]')`)
	p.do("a 5+3 game against the beginner engine", chromedp.SendKeys(chromedp.CSS("#tc"), "5+3"), chromedp.SetValue(chromedp.CSS("#engine"), "sparring-beginner"))
	eval[bool](p, `document.getElementById('engine').dispatchEvent(new Event('change'))`)
	p.wait("the engine's side is asked", `!document.getElementById('side-box').hidden`)
	p.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the links", `!document.getElementById('links').hidden`)
	follow(p, "#open-white")
	p.wait("the board", `window.arbiterGame && arbiterGame.snap && !document.getElementById('game').hidden`)
	// The names are waited for, not read once the board shows: the page
	// draws again at every event of the game (the engine's side is named
	// as the Hall learns of the engine), and this test failed once on a
	// loaded machine with a reading taken right after the board showed.
	const engine = "Встроенная программа: начальный уровень"
	const names = `document.title + '|' + (document.querySelector('#bar-top .pname') || {}).textContent`
	want, _ := json.Marshal("Белые – " + engine + "|" + engine)
	if !poll.Until(30*time.Second, 0, func() bool { return eval[bool](p, names+` === `+string(want)) }) {
		t.Errorf("tab|engine's bar: %q, want %s", eval[string](p, names), want)
	}
}

// TestBrowserDirectorChecksCount: the warnings on an event's settings say
// their numbers so that they read right for any count: a Russian director
// of five players, one of them unrated, over three rounds read "3 туров
// для 5 участников ... (2 туров)" (Russian has three plural forms; 2, 3
// and 4 take "тура"), and an English one "1 players have no rating".
// Now "Туров: 3, участников: 5 ... не больше 2" and "Players without a
// rating: 1 (Dina)"; the regulation is cited in Russian too ("FMJD
// Swiss art. 2.4" was English). Screenshots at 390 and 1366 px.
func TestBrowserDirectorChecksCount(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Клубный турнир","variant":"russian","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Анна","rating":2000},{"name":"Борис","rating":1900},{"name":"Вера","rating":1800},{"name":"Глеб","rating":1700},{"name":"Dina"}]}`, 200)
	for _, c := range []struct {
		locale, want string
	}{
		{"ru-RU", "Туров: 3, участников: 5. Швейцарские правила ФМЖД допускают туров не больше половины числа участников (здесь не больше 2). (ФМЖД, швейцарская система, ст.\u00a02.4)" +
			"Участников без рейтинга: 1 (Dina). Швейцарские правила ФМЖД дают каждому оценочный рейтинг или ставят их ниже среднего уровня турнира. (ФМЖД, швейцарская система, ст.\u00a03.1.1, 3.1.2)"},
		{"en-GB", "3 rounds for 5 players: the FMJD's Swiss rules ask for at most half the players (2 rounds). (FMJD Swiss art.\u00a02.4)" +
			"Players without a rating: 1 (Dina). The FMJD's Swiss rules give each an estimated rating, or place them below the field's average. (FMJD Swiss art.\u00a03.1.1, 3.1.2)"},
	} {
		d := newPage(t, "director-"+c.locale)
		browserSpeaks(d, c.locale)
		d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
		d.wait("the warnings", `window.arbiterDirector && arbiterDirector.ready && document.querySelectorAll('#checks li').length === 2`)
		if got := text(d, "#checks"); got != c.want {
			t.Errorf("%s reads %q,\nwant %q", c.locale, got, c.want)
		}
		d.shot("director-checks-"+c.locale+"-390", 390, 844, "#checks-box")
		d.shot("director-checks-"+c.locale+"-1366", 1366, 900, "#checks-box")
	}
}

// TestBrowserSheetLanguageLinks: a Russian reader at the club's computer,
// whose browser speaks English, is sent the public standings. The sheet
// opens in English; she picks "Русский" among the sheet's languages and
// reads it in Russian, then follows "Кросс-таблица", still in Russian.
// The sheets had no way to switch: the client pages' switcher is not on
// them. The languages' links are not printed. Screenshots at 390 and
// 1366 px.
func TestBrowserSheetLanguageLinks(t *testing.T) {
	browserTest(t)
	e, id := sheetEventEnv(t)
	p := newPage(t, "reader")
	browserSpeaks(p, "en-GB")
	p.do("open the standings", chromedp.Navigate(e.hs.URL+"/e/"+id+"/standings"))
	p.wait("the standings in English", `document.documentElement && document.documentElement.lang === 'en' && document.querySelector('h2')`)
	p.wait("a link to the sheet in Russian", `[...document.querySelectorAll('#nav-langs a')].some(a => a.textContent === 'Русский')`)
	p.do("choose Русский", chromedp.Click(chromedp.CSS(`#nav-langs a[href$="lang=ru"]`)))
	p.wait("the standings in Russian", `location.search === '?lang=ru' && document.documentElement && document.documentElement.lang === 'ru' && document.querySelector('h2')`)
	if got := text(p, "h2"); !strings.HasPrefix(got, "Положение после тура 1") {
		t.Errorf("the Russian standings open with %q", got)
	}
	if got := text(p, `#nav-langs a[aria-current="page"]`); got != "Русский" {
		t.Errorf("the language marked as shown is %q", got)
	}
	p.shot("sheet-langs-ru-390", 390, 844, "")
	p.shot("sheet-langs-ru-1366", 1366, 900, "")
	follow(p, `nav a[href$="/crosstable?lang=ru"]`)
	p.wait("the crosstable in Russian", `location.pathname.endsWith('/crosstable') && document.documentElement && document.documentElement.lang === 'ru' && document.querySelector('h2')`)
	if got := text(p, "h2"); !strings.HasPrefix(got, "Кросс-таблица") {
		t.Errorf("the crosstable opens with %q", got)
	}
	p.do("print", printMedia("print"))
	if shown := eval[bool](p, `getComputedStyle(document.getElementById('nav-langs')).display !== 'none'`); shown {
		t.Error("the languages' links are printed")
	}
}

// TestBrowserClockWordsPlural: a player whose browser speaks Russian
// types time controls with moves on the create page. The page says them
// back with the moves' word in Russian's three forms: "22 хода", "21
// ход", "40 ходов"; every count read "ходов" ("22 ходов").
func TestBrowserClockWordsPlural(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	p := newPage(t, "creator")
	browserSpeaks(p, "ru-RU")
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	p.wait("the page in Russian", `document.documentElement.lang === 'ru' && document.querySelector('#variant option')`)
	for _, c := range []struct{ typed, says string }{
		{"22/60", "22 хода за "},
		{"21/60", "21 ход за "},
		{"40/60", "40 ходов за "},
	} {
		eval[bool](p, `(document.getElementById('tc').value = '', true)`)
		p.do("type "+c.typed, chromedp.SendKeys(chromedp.CSS("#tc"), c.typed))
		// The echo of this text begins with its count of moves.
		p.wait("the clock said back", `document.getElementById('tc-echo').textContent.startsWith('`+c.typed[:2]+` ')`)
		if got := p.text("tc-echo"); !strings.Contains(got, c.says) {
			t.Errorf("%s is said back as %q, want %q in it", c.typed, got, c.says)
		}
	}
	p.shot("clock-plural-ru-390", 390, 844, "#tc")
}
