package online

import (
	"fmt"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// writePDN writes the record as PDN with the arbiter's one builder
// (Record.PDN): warnings, claims with their evidence, the arbiter's
// decisions and the clock after every move as comments.
func writePDN(rec arbiter.Record, s Setup, created time.Time) (string, error) {
	pg := rec.PDN(arbiter.PDNTags{Event: "Online game", Site: "?", Round: "-", White: s.White, Black: s.Black,
		Date: created.UTC(), Clock: true})
	var b strings.Builder
	if err := pdn.Write(&b, pg); err != nil {
		return "", fmt.Errorf("online: writing PDN: %w", err)
	}
	return escapeControls(b.String()), nil
}
