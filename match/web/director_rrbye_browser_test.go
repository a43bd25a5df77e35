package web

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDirectorLogByeInLanguage: in a round-robin, Ann asks for a
// half-point bye in round 1, which decides her board ("1-2 (White:
// half-point bye)"); the director then enters the game she played after
// all, a draw. The audit log's line for that change reads in Russian on
// the director's page, the bye's label included: it stayed English ("1-2
// (White: half-point bye) → 1-1") in a Russian line. Screenshots of the
// log at 390 and 1366 px.
func TestBrowserDirectorLogByeInLanguage(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Кубок Бергена","variant":"international","system":"round-robin","rounds":3}`)
	v, _ := e.op(tok, "add-players", `{"players":[{"name":"Анна","rating":2000},{"name":"Борис","rating":1900},{"name":"Вера","rating":1800},{"name":"Глеб","rating":1700}]}`, 200)
	ann := v.Players[0].ID
	e.op(tok, "bye", fmt.Sprintf(`{"player":%d,"round":1,"kind":"H"}`, ann), 200)
	v, _ = e.op(tok, "pair", `{"round":1}`, 200)
	board := 0
	for _, b := range v.Rounds[0].Boards {
		if b.White == ann {
			board = b.Board
		}
	}
	if board == 0 {
		t.Fatalf("Анна is not White in round 1: %+v", v.Rounds[0].Boards)
	}
	e.op(tok, "publish", `{"round":1}`, 200)
	e.op(tok, "result", fmt.Sprintf(`{"round":1,"board":%d,"result":"=-="}`, board), 200)

	d := newPage(t, "director")
	d.do("open the director's link", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the director's page", `window.arbiterDirector && arbiterDirector.ready && document.querySelector('#audit li')`)
	eval[bool](d, `(() => { const k = document.getElementById('keep-box'); if (k && k.open) document.getElementById('keep-done').click(); return true; })()`)
	lines := func() []string {
		return eval[[]string](d, `[...document.querySelectorAll('#audit li')].map(li => li.lastChild.textContent.trim())`)
	}
	english := fmt.Sprintf("result: round 1 board %d: 1-2 (White: half-point bye) -> 1-1 (director)", board)
	if l := lines(); !slices.Contains(l, english) {
		t.Errorf("no line %q in English:\n%s", english, strings.Join(l, "\n"))
	}
	d.do("choose Russian", chromedp.SetValue(chromedp.CSS("#lang"), "ru"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the log in Russian", `document.documentElement.lang === 'ru' && [...document.querySelectorAll('#audit li')].some(li => li.textContent.includes('результат: '))`)
	russian := fmt.Sprintf("результат: 1-й тур, доска %d: 1-2 (Белые: свободен (пол-очка)) → 1-1 (главный судья)", board)
	if l := lines(); !slices.Contains(l, russian) {
		t.Errorf("no line %q in Russian:\n%s", russian, strings.Join(l, "\n"))
	}
	d.do("open the log", chromedp.Click(chromedp.CSS("details:has(#audit) > summary")))
	d.shot("director-log-bye-ru-390", 390, 844, "#audit")
	d.shot("director-log-bye-ru-1366", 1366, 900, "#audit")
}
