// Package rating computes rating changes and performance ratings of one
// event from the players' ratings before it and their game results: pure
// computation, no storage, no HTTP. The director (match/people/director),
// the web front (match/web) and the sheets (reports/sheets) import it;
// it imports only the event vocabulary (rules/tally).
//
// # FIDE Rating Regulations (Handbook B.02, applied from 1 March 2024)
//
// Implemented from the text of https://handbook.fide.com/chapter/B022024
// ("FIDE RATING REGULATIONS (Approved by FIDE Council on 15/12/2023)",
// with the amendment of art. 8.3.1 effective from 1 October 2025), read
// in a verbatim transcription of that page (sections 7 and 8 in full,
// tables included) fetched on 2026-10-09 and kept in a public repository.
// Every entry of tables 8.1.1 and 8.1.2 below was compared with it.
//
//   - art. 8.1.2: PD for a rating difference D (expectedTable, Expected).
//   - art. 8.3.1: a difference of more than 400 points counts as 400 for
//     players rated below 2650; for players rated 2650 and above the
//     actual difference is used (NoCapFrom). The cap is the rated
//     player's: two players on either side of 2650 more than 400 apart
//     do not exchange equal amounts.
//   - art. 8.3.2: ΔR = score − PD, the change is ΣΔR × K (Change,
//     GameChange).
//   - art. 8.3.3: K = 40 for a player new to the list until 30 games, and
//     until the end of the year of their 18th birthday while rated under
//     2300; 20 while under 2400; 10 once a published rating reached 2400,
//     for good (KFor, with the case that applies; Junior). If K × n
//     exceeds 700 for the n games of a rating period, K is the largest
//     whole number with K × n ≤ 700 (CapK).
//   - art. 8.3.4: the change is rounded to the nearest whole number, 0.5
//     away from zero (Round).
//   - art. 8.1.1 and 8.2: dp for a fractional score p (dpTable, DP); the
//     initial rating of an unrated player is Ru = Ra + dp with Ra the
//     average of the rated opponents plus two hypothetical opponents
//     rated 1800, drawn; rounded; at most 2200; art. 8.2.1: a zero score
//     in the first event is disregarded; art. 7.1.4: at least 5 games
//     against rated opponents, and at least 1400 (Initial).
//   - The event's performance rating shown on the sheets is Ra + dp over
//     the rated games (Performance), the form of art. 8.2.3 without the
//     two hypothetical opponents. B.02 itself defines no "performance"
//     for a rated player; the title regulations (B.01) do, and were not
//     read, so the figure is labelled as Ra + dp, not as a norm figure.
//
// B.02 contains no worked example; the tests compute examples by hand from
// the articles above and check them to the decimal.
//
// # FMJD rating system (Annex 9 of the FMJD regulations)
//
// Only the first part of "Annex 9 FMJD rating system and its application
// rules" (revised after the General Assembly 2009) could be read, at
// https://docsbay.net/annex-9-fmjd-rating-system-s1: art. 1.1 (separate
// lists for 100 and 64 squares), art. 1.2 (the competitions rated) and
// art. 1.2.2.2 (time controls other than the official one, not shorter
// than 3 hours per round, reduce the development factor by 50 % compared
// to art. 3.2.3; HalfK). Articles 2 and 3 — the FMJD's expected-result
// table, its development factor and its rounding — were searched for
// (English, French, Dutch, Russian and Estonian wordings) and not found.
// A second search (4 December 2026) found nothing more: stored pages for
// "FMJD rating system Annex 9 development factor", "Annex 9 ... 3.2.3
// calculation of the new rating", "FMJD Annexes February 2018" (a
// hobbydocbox copy whose excerpt shows no rating annex), "système de
// classement FMJD coefficient de développement" (only the French
// federation's national formula, Pa = N−1+(Y−X)N/Z, K 5 to 20),
// "рейтинг ФМЖД положение коэффициент" (only the FMJD-64 section's
// page of requirements for the tables sent in, home.lu.lv/~viktors),
// "KNDB ratingreglement / Rekenregels Rating KNDB" (damforum threads on
// the Dutch national rating, a proposal, not the FMJD's), "IDF 64
// rating regulations"; the docs corpus ("FMJD rating system annex
// development factor": chess and general Elo libraries only); and the
// code index (the strings "FMJD rating system" and "development factor
// is reduced by 50%": none; "FMJD rating": PDN tag lists and UI labels);
// then "FMJD Annexes February 2018 Annex 9 ... Rn = Ro + K", "facteur de
// développement classement FMJD ... annexe 9" and "Toernooibase FMJD
// rating berekening verversingsfactor": the same pages again, nothing
// with the FMJD's art. 2 or 3.
// So this package does NOT claim to compute FMJD ratings: System FMJD is
// the Elo method above with the development factor the director sets. A
// director who needs the official FMJD figure must check the K and the
// table against the current Annex 9.
package rating
