// Package rating computes rating changes and performance ratings of one
// event from the players' ratings before it and their game results: pure
// computation, no storage, no HTTP. The director (match/people/director),
// the web front (match/web) and the sheets (reports/sheets) import it;
// it imports only the standard library.
//
// # FIDE Rating Regulations (Handbook B.02, effective 1 March 2024)
//
// Implemented as the text states it, read at
// https://www.chatillon-echecs.fr/outils/elo (which quotes art. 8.3 of the
// regulations in force from 1 March 2024) and the tables of art. 8.1 read
// at https://scribd.com/document/477325658/FIDE-rating and
// http://chess.sainfo.ru/ratingtext.html:
//
//   - art. 8.3.1: for each game against a rated player, D is the difference
//     in rating; a difference of more than 400 points counts as 400
//     (Expected).
//   - art. 8.3.2: PD from table 8.1.2 (expectedTable), ΔR = score − PD,
//     the rating change is K·ΣΔR (Change, GameChange).
//   - art. 8.3.3: K = 40 (new player until 30 games; under 18 while below
//     2300), 20 while below 2400, 10 once 2400 was reached (FIDEK); if
//     K·n exceeds 700 for the n games of the period, K is the largest whole
//     number with K·n ≤ 700 (CapK).
//   - art. 8.3.4: the change for a rating period is rounded to the nearest
//     whole number, 0.5 away from zero (Round).
//   - table 8.1.1 (p → dp, with dp = ±800 at a 100 % or 0 % score):
//     Performance = Ra + dp, Ra the average rating of the rated opponents.
//     The article that defines the performance rating in the 2024 text was
//     not read; only the table and the formula Rp = Ra + dp (the form FIDE's
//     own calculation pages use, https://ratings.fide.com/individual_calculations.phtml)
//     were.
//
// # FMJD rating system (Annex 9 of the FMJD regulations)
//
// Read at https://docsbay.net/annex-9-fmjd-rating-system-s1: only its
// first part (art. 1.1 to 1.3: the lists for 100 and 64 squares, the
// competitions rated, art. 1.2.2.2: time controls other than the official
// one, not shorter than 3 hours per round, reduce the development factor
// by 50 % compared to art. 3.2.3). The articles that give the FMJD's
// expected-result table and its development factor (art. 3.x) could not be
// read, so this package does NOT claim to compute FMJD ratings: the FMJD
// system is offered as the Elo method above with a development factor the
// director sets (System FMJD), and HalfK applies art. 1.2.2.2. A director
// who needs the official FMJD figure must check the K and the table against
// the current Annex 9.
package rating
