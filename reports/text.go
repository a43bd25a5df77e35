package reports

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteStandings prints the standings as a plain-text table, for the
// console while an event runs:
//
//	#  Engine   Games  Points  Score  +W  =D  -L  Elo           LOS
//	1  alpha       12     8½   70.8%   7   3   2  +152.2 ± 170  96.3%
//
// followed by a line saying why the joint ratings could not be fitted, if
// they could not, and the SPRT line when the event runs one.
func WriteStandings(w io.Writer, st *Stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tEngine\tGames\tPoints\tScore\t+W\t=D\t-L\tElo\tLOS\t")
	for _, e := range st.Engines {
		elo := "n/a"
		if e.WDL.Games() > 0 {
			fig, pm := eloText(e.Elo, e.WDL.Games())
			elo = fig + " " + pm
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%.1f%%\t%d\t%d\t%d\t%s\t%.1f%%\t\n", e.Rank, sanitizeText(e.Name), e.WDL.Games(),
			fmtPoints(e.Points), e.Score*100, e.WDL.W, e.WDL.D, e.WDL.L, elo, e.LOS*100)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if st.RatingFailure != "" {
		if _, err := fmt.Fprintf(w, "Joint ratings not computed: %s\n", st.RatingFailure); err != nil {
			return err
		}
	}
	if s := st.SPRT; s != nil {
		if s.Failure != "" {
			_, err := fmt.Fprintf(w, "SPRT [%g, %g]: LLR not computed (%s) after %d games, %d pairs\n",
				s.Config.Elo0, s.Config.Elo1, s.Failure, s.Games, s.Pairs)
			return err
		}
		_, err := fmt.Fprintf(w, "SPRT [%g, %g]: LLR %.2f (%.2f, %.2f) %s after %d games, %d pairs\n",
			s.Config.Elo0, s.Config.Elo1, s.LLR, s.Lower, s.Upper, s.Decision, s.Games, s.Pairs)
		return err
	}
	return nil
}

func fmtSigned(x float64) string {
	s := fmtElo(x)
	if s != "n/a" && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// sanitizeText keeps engine names from breaking the table (tabs, newlines)
// or the terminal (control characters).
func sanitizeText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
