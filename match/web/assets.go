// Package web serves refereed games to browsers: the HTTP routes, the JSON
// API, server-sent events and the embedded web client.
//
// Imported by cmd/arbiter only (serve, the live view); the one package that
// knows HTTP, over both wings: it may import anything of the module but cmd.
package web

import "embed"

// Assets holds the web client: index.html (create a game), game.html (the
// board), the ES modules, the style sheet and the message catalogs in
// i18n/*.json. Paths inside the FS start with "assets/". Nothing here is
// built: the browser loads the files as they are.
//
//go:embed assets
var Assets embed.FS
