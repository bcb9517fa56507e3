package gwtls

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// Version is the version of kubectl-gwtls, set at build time with
//
//	go build -ldflags "-X github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls.Version=v1.2.3"
//
// and written into SARIF output as tool.driver.version.
var Version = "dev"

// Commit and BuildDate are set at build time like Version (hack/dist.sh does). When
// empty, they come from the VCS information Go stamps into the binary.
var (
	Commit    = ""
	BuildDate = ""
)

// BuildInfo is what `version` prints.
type BuildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	BuildDate string `json:"buildDate,omitempty"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// GetBuildInfo reads the build information: ldflags first, then what the Go
// toolchain recorded (module version, vcs.revision, vcs.time, vcs.modified).
func GetBuildInfo() BuildInfo {
	b := BuildInfo{Version: Version, Commit: Commit, BuildDate: BuildDate, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if b.Version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.Version = info.Main.Version // go install ...@v1.2.3
	}
	if info.GoVersion != "" {
		b.GoVersion = info.GoVersion
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if b.Commit == "" {
				b.Commit = s.Value
			}
		case "vcs.time":
			if b.BuildDate == "" {
				b.BuildDate = s.Value
			}
		case "vcs.modified":
			b.Modified = s.Value == "true" && Commit == ""
		}
	}
	return b
}

// VersionOptions are the options of `version`.
type VersionOptions struct {
	Output string

	build BuildInfo
	genericiooptions.IOStreams
}

// NewCmdVersion builds `version`.
func NewCmdVersion(streams genericiooptions.IOStreams) *cobra.Command {
	o := &VersionOptions{IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, git commit, build date and Go version",
		Example: `  ` + commandName() + ` version
  ` + commandName() + ` version -o json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: text (default) or json")
	return cmd
}

// Complete reads the build information.
func (o *VersionOptions) Complete(cmd *cobra.Command, args []string) error {
	o.build = GetBuildInfo()
	return nil
}

// Validate checks the flags.
func (o *VersionOptions) Validate() error {
	switch o.Output {
	case "", "text", "json":
		return nil
	}
	return usageErrorf("--output %q: want text or json", o.Output)
}

// Run prints the build information.
func (o *VersionOptions) Run(ctx context.Context) error {
	b := o.build
	if o.Output == "json" {
		data, err := json.MarshalIndent(b, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Out, "%s\n", data)
		return err
	}
	commit, date := b.Commit, b.BuildDate
	if commit == "" {
		commit = "unknown"
	} else if b.Modified {
		commit += " (modified)"
	}
	if date == "" {
		date = "unknown"
	}
	_, err := fmt.Fprintf(o.Out, "kubectl-gwtls %s\ncommit:     %s\nbuild date: %s\ngo:         %s %s\n", b.Version, commit, date, b.GoVersion, b.Platform)
	return err
}
