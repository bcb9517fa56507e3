package gwtls

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/config"
)

// The configuration file (.gwtls.yaml, package config) gives the defaults of
// the input flags and of --fail-on and --baseline; a flag the user sets on the
// command line wins over it (cobra's Changed).

const configUsage = "configuration file (default: " + config.FileName + " in the working directory or the nearest parent); --config='' reads none"

// loadConfig reads the configuration file --config names, else the nearest
// .gwtls.yaml, and takes from it the input flags the user did not set.
func (o *InputOptions) loadConfig() error {
	o.config = nil
	path := o.ConfigFile
	if path == "" {
		if o.flags != nil && o.flags.Changed("config") {
			return nil // --config='': no configuration
		}
		found, err := config.Find(".")
		if err != nil || found == "" {
			return loadErrorOrNil(err)
		}
		path = relativeToWorkingDir(found)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return loadError{err}
	}
	o.config = cfg
	if o.fromConfig("controller", "controller") {
		o.Controller = cfg.Controller
	}
	if o.fromConfig("external", "external") {
		o.External = cfg.External
	}
	if o.fromConfig("supported-features", "supportedFeatures") {
		o.SupportedFeatures = strings.Join(cfg.SupportedFeatures, ",")
	}
	if o.fromConfig("warn-expiry", "warnExpiry") {
		o.WarnExpiry = cfg.WarnExpiry
	}
	return nil
}

// fromConfig reports whether a value comes from the configuration file: the
// file sets key, and the user did not set the flag.
func (o *InputOptions) fromConfig(flag, key string) bool {
	if !o.config.Set(key) {
		return false
	}
	return o.flags == nil || o.flags.Lookup(flag) == nil || !o.flags.Changed(flag)
}

func loadErrorOrNil(err error) error {
	if err != nil {
		return loadError{err}
	}
	return nil
}

// relativeToWorkingDir shortens a path found from the working directory, so
// that messages and output name ../.gwtls.yaml rather than an absolute path.
func relativeToWorkingDir(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil {
		return rel
	}
	return path
}
