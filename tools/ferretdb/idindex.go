package main

// The `_id` index FerretDB's own `_id` filter can use.
//
// FerretDB v1.24.2 (SQLite backend) filters by `_id` with the expression
// `_ferretdb_sjson->'$._id'` (metadata.IDColumn) in its SELECT, UPDATE and DELETE
// statements, but the unique `_id_` index it creates is on `_ferretdb_sjson->"_id"`, a
// different expression: SQLite cannot use it, so every lookup, replace and delete by `_id`
// scans the whole table. We add, in every collection table, an index on exactly the
// expression the filter uses. FerretDB creates databases (one .sqlite file each) and tables
// lazily, so a goroutine looks for new ones a few times a second; a table that exists at
// start (an existing data directory) gets its index then. Uniqueness stays with FerretDB's
// own index; ours only serves lookups. FerretDB itself is not changed.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver FerretDB uses too
)

const (
	// FerretDB's metadata table in every database file (backends.ReservedPrefix + "collections").
	metadataTable = "_ferretdb_collections"
	// The expression of FerretDB's `_id` filter (metadata.IDColumn).
	idExpression = `_ferretdb_sjson->'$._id'`
	// Suffix of our index names: "<table>_pcp_id".
	indexSuffix = "_pcp_id"
)

// sqliteDir is the directory of a FerretDB SQLite URL (file:<dir>/ or file:///<dir>/).
func sqliteDir(sqliteURL string) (string, error) {
	u, err := url.Parse(sqliteURL)
	if err != nil {
		return "", err
	}
	dir := u.Opaque
	if dir == "" {
		dir = u.Path
	}
	if dir == "" {
		return "", fmt.Errorf("no directory in SQLite URL %q", sqliteURL)
	}
	return filepath.Clean(dir), nil
}

// openExisting opens a database file without ever creating one (mode=rw), with the same
// busy timeout FerretDB uses, so a short lock of ours makes its statements wait, not fail.
func openExisting(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// collectionTables lists the collection tables FerretDB's metadata names, by collection.
func collectionTables(ctx context.Context, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT name, table_name FROM %q", metadataTable))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tables := map[string]string{}
	for rows.Next() {
		var name, table string
		if err := rows.Scan(&name, &table); err != nil {
			return nil, err
		}
		tables[name] = table
	}
	return tables, rows.Err()
}

// ensureIDIndex creates the index if the table has none yet; true when it created one.
func ensureIDIndex(ctx context.Context, db *sql.DB, table string) (bool, error) {
	index := table + indexSuffix
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?", index).Scan(&n)
	if err != nil || n > 0 {
		return false, err
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %q ON %q (%s)", index, table, idExpression))
	return err == nil, err
}

// idIndexer keeps every collection table of every database file in dir indexed.
type idIndexer struct {
	dir    string
	logger *slog.Logger
	dbs    map[string]*sql.DB         // file -> handle
	done   map[string]map[string]bool // file -> table -> indexed
	seen   map[string]string          // file -> fileState when it was last fully indexed
}

func newIDIndexer(dir string, logger *slog.Logger) *idIndexer {
	return &idIndexer{dir: dir, logger: logger, dbs: map[string]*sql.DB{}, done: map[string]map[string]bool{}, seen: map[string]string{}}
}

// fileState is the size and modification time of a database file and of its write-ahead
// log: a new table is a write to one of them, so a file whose state has not changed since it
// was indexed has no new table. A test run leaves hundreds of idle database files; reading
// each one's metadata four times a second cost the engine about 5 % of a core at 300.
func fileState(file string) string {
	state := ""
	for _, name := range []string{file, file + "-wal"} {
		if info, err := os.Stat(name); err == nil {
			state += fmt.Sprintf("%d/%d;", info.Size(), info.ModTime().UnixNano())
		} else {
			state += "-;"
		}
	}
	return state
}

// pass indexes what is new since the last pass; cheap when nothing is (a stat of each
// database file and its log, and one metadata read per file written since).
func (x *idIndexer) pass(ctx context.Context) {
	files, _ := filepath.Glob(filepath.Join(x.dir, "*.sqlite"))
	present := map[string]bool{}
	for _, file := range files {
		present[file] = true
		if err := x.indexFile(ctx, file); err != nil && !errors.Is(err, context.Canceled) {
			// A database being created or dropped right now: the next pass sees it settled.
			x.logger.Debug("id index pass", "file", file, "error", err)
		}
	}
	for file, db := range x.dbs {
		if !present[file] { // dropped database
			db.Close()
			delete(x.dbs, file)
			delete(x.done, file)
			delete(x.seen, file)
		}
	}
}

func (x *idIndexer) indexFile(ctx context.Context, file string) error {
	// Taken before the read: a table created during this pass changes it again.
	state := fileState(file)
	if x.seen[file] == state {
		return nil
	}
	db := x.dbs[file]
	if db == nil {
		var err error
		if db, err = openExisting(file); err != nil {
			return err
		}
		x.dbs[file] = db
		x.done[file] = map[string]bool{}
	}
	tables, err := collectionTables(ctx, db)
	if err != nil {
		return err
	}
	for _, table := range tables {
		if x.done[file][table] {
			continue
		}
		created, err := ensureIDIndex(ctx, db, table)
		if err != nil {
			return err
		}
		if created {
			x.logger.Info("created _id index", "file", filepath.Base(file), "table", table)
		}
		x.done[file][table] = true
	}
	x.seen[file] = state
	return nil
}

// run indexes at once (existing data), then every interval until ctx ends.
func (x *idIndexer) run(ctx context.Context, interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		x.pass(ctx)
		select {
		case <-ctx.Done():
			for _, db := range x.dbs {
				db.Close()
			}
			return
		case <-ticker.C:
		}
	}
}

// explainID prints, for every collection table of every database in dir, SQLite's query
// plan of FerretDB's `_id` lookup, one line each: "<db> <collection> <table>: <plan>".
// Tests read it to check that the lookup uses an index.
func explainID(ctx context.Context, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		return err
	}
	for _, file := range files {
		db, err := openExisting(file)
		if err != nil {
			return err
		}
		tables, err := collectionTables(ctx, db)
		if err != nil {
			db.Close()
			return err
		}
		for name, table := range tables {
			q := fmt.Sprintf("EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM %q WHERE %s = ?", table, idExpression)
			rows, err := db.QueryContext(ctx, q, `"x"`)
			if err != nil {
				db.Close()
				return err
			}
			var details []string
			for rows.Next() {
				var id, parent, notused int
				var detail string
				if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
					rows.Close()
					db.Close()
					return err
				}
				details = append(details, detail)
			}
			rows.Close()
			dbName := strings.TrimSuffix(filepath.Base(file), ".sqlite")
			fmt.Fprintf(os.Stdout, "%s %s %s: %s\n", dbName, name, table, strings.Join(details, "; "))
		}
		db.Close()
	}
	return nil
}
