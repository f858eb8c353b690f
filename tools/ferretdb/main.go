// Command ferretdb starts the embedded FerretDB v1.24.2 (MongoDB wire protocol on
// SQLite). It wraps the embeddable package because a plain `go install` of the
// upstream command panics at start (its build/version/version.txt is not in the module).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	// `ferretdb explain-id --sqlite-url file:<dir>/`: the query plan of the `_id` lookup of
	// every collection table (see idindex.go); used by the tests.
	if len(os.Args) > 1 && os.Args[1] == "explain-id" {
		explain := flag.NewFlagSet("explain-id", flag.ExitOnError)
		url := explain.String("sqlite-url", "file:data/", "SQLite URI (a directory, with trailing slash)")
		_ = explain.Parse(os.Args[2:])
		dir, err := sqliteDir(*url)
		if err == nil {
			err = explainID(context.Background(), dir)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "explain-id:", err)
			os.Exit(1)
		}
		return
	}

	listen := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	sqliteURL := flag.String("sqlite-url", "file:data/", "SQLite URI (a directory, with trailing slash)")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	noIDIndex := flag.Bool("no-id-index", false, "do not add the _id index (benchmarks compare with it)")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "bad --log-level %q: %v\n", *logLevel, err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: *sqliteURL,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if !*noIDIndex {
		dir, err := sqliteDir(*sqliteURL)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ferretdb:", err)
			os.Exit(1)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "ferretdb:", err)
			os.Exit(1)
		}
		indexer := newIDIndexer(dir, logger)
		// Existing databases are indexed before the port opens (the migration of old data).
		indexer.pass(ctx)
		go indexer.run(ctx, 250*time.Millisecond)
	}

	// The launcher waits for this line to know the port is open.
	fmt.Println("ferretdb ready", f.MongoDBURI())

	if err := f.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}
}
