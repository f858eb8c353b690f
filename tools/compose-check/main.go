// compose-check loads a compose file the way `docker compose config` does (compose-go, the
// library the docker compose CLI is built on): the Compose Specification's JSON schema,
// variable interpolation (.env beside the file and the environment), and the consistency
// checks (services, networks, volumes, configs and depends_on refer to things that exist).
// It needs no container runtime. On success it prints the resolved project as JSON on
// stdout; on a bad file it prints the loader's message on stderr and exits 1.
//
// Usage: compose-check FILE [--profile NAME]...
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check FILE")
		os.Exit(2)
	}
	options, err := cli.NewProjectOptions(
		[]string{os.Args[1]},
		cli.WithOsEnv,
		cli.WithDotEnv,
		cli.WithName("pcp"),
		cli.WithProfiles(os.Args[2:]),
	)
	if err != nil {
		fail(err)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fail(err)
	}
	out, err := project.MarshalJSON()
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(out)
	os.Stdout.Write([]byte("\n"))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "compose-check: %v\n", err)
	os.Exit(1)
}
