package web

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// TestBrowserDirectorLogInLanguage: a director creates an event on the
// page, imports four players, pairs round 1, publishes it and enters two
// results (a win and a forfeit), then switches the page to Russian. The
// audit log reads in Russian: no word of the English templates is left
// in a line, the action is a Russian word, and the result's source and
// the forfeit's label are Russian too. A line stored before the log was
// coded (English text only) still shows, as it was. Screenshots of the
// log at 390 and 1366 px.
func TestBrowserDirectorLogInLanguage(t *testing.T) {
	browserTest(t)
	path := filepath.Join(t.TempDir(), "events.db")
	st, err := director.Open(director.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &dirEnv{env: newEnv(t, Config{Limits: unlimited, Director: st}), store: st}

	d := newPage(t, "director")
	d.do("open the create page", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the variants load", `document.querySelector('#ev-variant option[value="international"]')`)
	d.do("create the event",
		chromedp.SetValue(chromedp.CSS("#ev-name"), "Кубок Бергена"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "3"),
		chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready && document.getElementById('keep-box').open`)
	d.do("the link is kept", chromedp.Click(chromedp.CSS("#keep-done")))
	id := eval[string](d, `arbiterDirector.view.event.id`)
	oldLine(t, path, id)

	d.do("import four players", chromedp.SetValue(chromedp.CSS("#import-text"),
		"name,club,federation,rating\nАнна Белова,ШК Москва,RUS,2210\nБорис Волков,ШК Казань,RUS,2150\nВера Глебова,ШК Москва,RUS,2100\nГлеб Демин,ШК Уфа,RUS,2050\n"),
		chromedp.Click(chromedp.CSS("#import")))
	d.wait("four players", `document.querySelectorAll('#players tbody tr').length === 4`)
	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("round 1 paired", `!document.getElementById('publish').hidden`)
	d.do("publish it", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("round 1 published", `document.getElementById('r1b1-save') && document.getElementById('r1b2-save')`)
	enter(d, 1, "1-0")
	d.wait("board 1's result", `document.getElementById('r1b1-result-cell').dataset.result === '1-0'`)
	enter(d, 2, "+--") // Black does not come
	d.wait("board 2's result", `document.getElementById('r1b2-result-cell').dataset.result === '+--'`)

	d.do("choose Russian", chromedp.SetValue(chromedp.CSS("#lang"), "ru"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the log in Russian", `document.documentElement.lang === 'ru' && document.querySelector('#audit li').textContent.includes('результат: ')`)
	lines := eval[[]string](d, `[...document.querySelectorAll('#audit li')].map(li => li.lastChild.textContent.trim())`)
	const old = `edit: site "Old Hall" -> "New Hall"`
	if !slices.Contains(lines, old) {
		t.Errorf("the line stored in English before the codes is gone or changed: %q", lines)
	}
	english := templateWords()
	for _, l := range lines {
		if l == old {
			continue
		}
		if w := english.FindString(l); w != "" {
			t.Errorf("%q has the English %q", l, w)
		}
	}
	for _, want := range []string{
		"результат: 1-й тур, доска 1: 2-0 (главный судья)",
		"результат: 1-й тур, доска 2: 2-0 без игры (главный судья)",
		"создание: турнир «Кубок Бергена», швейцарская система, 3 тура, международные шашки",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no line %q in\n%s", want, strings.Join(lines, "\n"))
		}
	}
	d.do("open the log", chromedp.Click(chromedp.CSS("details:has(#audit) > summary")))
	d.shot("director-log-lang-390", 390, 844, "#audit")
	d.shot("director-log-lang-1366", 1366, 900, "#audit")
}

// enter chooses a result of round 1's board and saves it, in one step:
// the page redraws itself every few seconds, and a select found before a
// redraw is gone after it.
func enter(d *page, board int, result string) {
	d.t.Helper()
	key := fmt.Sprintf("r1b%d", board)
	eval[bool](d, `(() => { const s = document.getElementById('`+key+`-result'); s.value = '`+result+`';
		s.dispatchEvent(new Event('change')); document.getElementById('`+key+`-save').click(); return true; })()`)
}

// oldLine writes a line into the event's log as the store wrote them
// before the codes: English text only.
func oldLine(t *testing.T, path, event string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `INSERT INTO audit (event, at, action, detail) VALUES (?, ?, 'edit', 'site "Old Hall" -> "New Hall"')`,
		event, time.Now().UnixNano()); err != nil {
		t.Fatal(err)
	}
}

// templateWords matches any word (three letters or more) of the audit
// log's English templates and action words, whole.
func templateWords() *regexp.Regexp {
	seen := map[string]bool{}
	var words []string
	add := func(s string) {
		for _, w := range regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(argRE.ReplaceAllString(s, ""), -1) {
			if w = strings.ToLower(w); !seen[w] && w != "trf" {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	for _, c := range director.AuditCodes() {
		add(regexp.MustCompile(`\{[a-z_]+\|[^}]*\}`).ReplaceAllString(c.Text, ""))
		add(strings.Join(regexp.MustCompile(`\{[a-z_]+\|([^}]*)\}`).FindAllString(c.Text, -1), " "))
	}
	for _, a := range director.AuditActions() {
		add(a)
	}
	return regexp.MustCompile(`(?i)\b(` + strings.Join(words, "|") + `)\b`)
}
