package web

// routes lists every route of the server (Go 1.22 patterns: a GET route
// answers HEAD too; another method gets 405 with Allow, in JSON).
//
// {token} is the secret of one link (a player's, the spectator's or the
// arbiter's): the Hall resolves it to a game and a role. An unknown token
// and a tampered one get the same 404.
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /assets/{path...}", s.asset) // the embedded client
	m.HandleFunc("GET /healthz", s.healthz)        // liveness
	if s.live != nil {
		s.liveRoutes() // live_handlers.go
	}
	if s.hall == nil {
		return
	}
	m.HandleFunc("GET /{$}", s.page("index.html"))         // the create form
	m.HandleFunc("GET /g/{token}", s.page("game.html"))    // a game's page (its script reads the token)
	m.HandleFunc("GET /g/{$}", s.emptyToken)               // a link cut short: a browser gets the page that says so
	m.HandleFunc("GET /api/variants", s.variants)          // what the create form offers
	m.HandleFunc("GET /api/clock", s.clock)                // the create form's time control read and said in words
	m.HandleFunc("POST /api/games", s.createGame)          // Setup -> id and links
	m.HandleFunc("GET /api/g/{token}", s.snapshot)         // the game as this role sees it
	m.HandleFunc("GET /api/g/{token}/events", s.events)    // server-sent events (?since=V, Last-Event-ID)
	m.HandleFunc("POST /api/g/{token}/act", s.act)         // Intent -> Reply
	m.HandleFunc("GET /api/g/{token}/pdn", s.pdn)          // the record (attachment)
	m.HandleFunc("GET /api/g/{token}/egdb", s.endgame)     // the arbiter's link only: the position's value in the endgame databases
	m.HandleFunc("POST /api/g/{token}/rematch", s.rematch) // a finished game's rematch, colours swapped -> this player's new link
	s.directorRoutes()                                     // events run by a director (director.go)
	s.boardsRoutes()                                       // players at the boards (board_report.go)
}
