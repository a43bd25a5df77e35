//go:build tools

// Package tools pins the modules the project builds on, so that parallel work
// on separate packages never races on go.mod.
package tools

import (
	_ "github.com/chromedp/chromedp"
	_ "github.com/go-echarts/go-echarts/v2/charts"
	_ "github.com/rs/zerolog"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "golang.org/x/sync/errgroup"
	_ "gonum.org/v1/gonum/stat/distuv"
	_ "modernc.org/sqlite"
)
