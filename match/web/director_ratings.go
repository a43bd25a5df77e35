package web

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// ratingRoutes are the ratings' routes (issue 25): the rating list
// import and the rating report for the federation.
func (s *Server) ratingRoutes() {
	if s.dir == nil {
		return
	}
	s.mux.HandleFunc("POST /api/d/{dtoken}/ratinglist", s.directorRatingList) // CSV rating list (text/csv) -> the view
	s.mux.HandleFunc("GET /d/{dtoken}/ratings.csv", s.directorRatingsCSV)     // the rating changes, for the federation
}

// directorRatingList reads a rating list and fills the event's players'
// ratings and titles by federation id.
func (s *Server) directorRatingList(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "text/csv" {
		writeCode(w, http.StatusUnsupportedMediaType, codeMediaType, nil)
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyWait))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, director.MaxRatingList))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeCode(w, http.StatusRequestEntityTooLarge, codeTooLarge, map[string]string{"limit": strconv.FormatInt(mbe.Limit, 10)})
			return
		}
		writeCode(w, http.StatusBadRequest, codeBadJSON, map[string]string{"detail": "the body could not be read"})
		return
	}
	l, err := director.ParseRatingList(data)
	if err == nil {
		_, err = s.dir.ApplyRatingList(context.WithoutCancel(r.Context()), id, l)
	}
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	s.answerView(w, r, id, token)
}

// directorRatingsCSV is the rating report (Snapshot.RatingsCSV).
func (s *Server) directorRatingsCSV(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	sn, err := s.dir.Get(r.Context(), id)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+id+`-ratings.csv"`)
	_, _ = w.Write(sn.RatingsCSV())
}
